<?php
// create_collection.php: create a collection, signed per the gateway rule.
// PHP 7.4 or later with the curl extension: php create_collection.php

const BASE_URL = 'http://localhost:8080'; // your Paydesk server
const MERCHANT_NO = 'M100001';
const ACCESS_KEY = 'test_YOUR_ACCESS_KEY';
const SECRET_KEY = 'YOUR_SECRET_KEY';

/**
 * Sends one signed request and returns [status, decoded body]. $pathWithQuery is exactly what goes on
 * the wire, already percent-encoded: '/gateway/v1/collections?out_trade_no=ORDER-1001'.
 */
function callGateway(string $method, string $pathWithQuery, ?array $payload = null): array
{
    $body = $payload === null ? '' : json_encode($payload, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    $timestamp = (string) time();
    $nonce = bin2hex(random_bytes(16));
    $stringToSign = implode("\n", [$method, $pathWithQuery, $timestamp, $nonce, hash('sha256', $body)]);
    $signature = hash_hmac('sha256', $stringToSign, SECRET_KEY);

    $headers = [
        'X-Merchant-No: ' . MERCHANT_NO,
        'X-Access-Key: ' . ACCESS_KEY,
        'X-Timestamp: ' . $timestamp,
        'X-Nonce: ' . $nonce,
        'X-Signature: ' . $signature,
    ];
    $curl = curl_init(rtrim(BASE_URL, '/') . $pathWithQuery);
    curl_setopt_array($curl, [
        CURLOPT_CUSTOMREQUEST => $method,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_TIMEOUT => 30,
    ]);
    if ($body !== '') {
        $headers[] = 'Content-Type: application/json';
        curl_setopt($curl, CURLOPT_POSTFIELDS, $body);
    }
    curl_setopt($curl, CURLOPT_HTTPHEADER, $headers);
    $answer = curl_exec($curl);
    if ($answer === false) {
        throw new RuntimeException('Request failed: ' . curl_error($curl));
    }
    $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
    $decoded = json_decode($answer, true);
    return [$status, $decoded === null ? $answer : $decoded];
}

[$status, $answer] = callGateway('POST', '/gateway/v1/collections', [
    'out_trade_no' => 'ORDER-1001',
    'amount' => '100.00',
]);
echo $status, PHP_EOL, json_encode($answer, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), PHP_EOL;
exit($status === 201 ? 0 : 1);

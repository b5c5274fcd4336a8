#!/usr/bin/env bash
# create-collection.sh: create a collection, signed per the gateway rule. Needs bash, curl and openssl.
set -euo pipefail

BASE_URL='http://localhost:8080'     # your Paydesk server, without a trailing slash
MERCHANT_NO='M100001'
ACCESS_KEY='test_YOUR_ACCESS_KEY'
SECRET_KEY='YOUR_SECRET_KEY'

METHOD='POST'
PATH_WITH_QUERY='/gateway/v1/collections'
BODY='{"out_trade_no":"ORDER-1001","amount":"100.00"}'

TIMESTAMP=$(date +%s)
NONCE=$(openssl rand -hex 16)
BODY_SHA256=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)
SIGNATURE=$(printf '%s\n%s\n%s\n%s\n%s' "$METHOD" "$PATH_WITH_QUERY" "$TIMESTAMP" "$NONCE" "$BODY_SHA256" |
  openssl dgst -sha256 -hmac "$SECRET_KEY" -r | cut -d' ' -f1)

# --data-binary sends the body byte for byte, as it was hashed.
curl -sS --fail-with-body --write-out '\nHTTP %{http_code}\n' -X "$METHOD" "$BASE_URL$PATH_WITH_QUERY" \
  -H 'Content-Type: application/json' \
  -H "X-Merchant-No: $MERCHANT_NO" \
  -H "X-Access-Key: $ACCESS_KEY" \
  -H "X-Timestamp: $TIMESTAMP" \
  -H "X-Nonce: $NONCE" \
  -H "X-Signature: $SIGNATURE" \
  --data-binary "$BODY"

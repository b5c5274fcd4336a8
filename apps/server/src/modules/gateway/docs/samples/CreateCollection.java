// CreateCollection.java: create a collection, signed per the gateway rule.
// Java 11 or later, no dependencies: java CreateCollection.java
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class CreateCollection {
    static final String BASE_URL = "http://localhost:8080"; // your Paydesk server
    static final String MERCHANT_NO = "M100001";
    static final String ACCESS_KEY = "test_YOUR_ACCESS_KEY";
    static final String SECRET_KEY = "YOUR_SECRET_KEY";

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final SecureRandom RANDOM = new SecureRandom();

    public static void main(String[] args) throws Exception {
        String body = "{\"out_trade_no\":\"ORDER-1001\",\"amount\":\"100.00\"}";
        HttpResponse<String> response = callGateway("POST", "/gateway/v1/collections", body);
        System.out.println(response.statusCode());
        System.out.println(response.body());
        System.exit(response.statusCode() == 201 ? 0 : 1);
    }

    /**
     * Sends one signed request. pathWithQuery is exactly what goes on the wire, already percent-encoded
     * ("/gateway/v1/collections?out_trade_no=ORDER-1001"); body is the JSON text, or "" for none.
     */
    static HttpResponse<String> callGateway(String method, String pathWithQuery, String body) throws Exception {
        byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        String timestamp = Long.toString(System.currentTimeMillis() / 1000);
        byte[] nonceBytes = new byte[16];
        RANDOM.nextBytes(nonceBytes);
        String nonce = hex(nonceBytes);
        String bodySha256 = hex(MessageDigest.getInstance("SHA-256").digest(bodyBytes));
        String stringToSign = String.join("\n", method, pathWithQuery, timestamp, nonce, bodySha256);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String signature = hex(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));

        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(BASE_URL.replaceAll("/+$", "") + pathWithQuery))
            .header("X-Merchant-No", MERCHANT_NO)
            .header("X-Access-Key", ACCESS_KEY)
            .header("X-Timestamp", timestamp)
            .header("X-Nonce", nonce)
            .header("X-Signature", signature)
            .method(method, body.isEmpty()
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(bodyBytes));
        if (!body.isEmpty()) {
            request.header("Content-Type", "application/json");
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return out.toString();
    }
}

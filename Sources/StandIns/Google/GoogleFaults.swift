/// The canned faults external-apis §1.8 asks the fake Google to produce, by the names the control
/// plane accepts in `"fault"`.
extension CannedResponse {
    private static let jsonHeaders = ["Content-Type": "application/json; charset=utf-8"]

    /// 400 on the token endpoint: the refresh token is dead, stop and ask for consent again.
    public static let invalidGrant = CannedResponse(
        status: 400, headers: jsonHeaders,
        body: #"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#)

    /// 401 on the token endpoint: wrong client credentials.
    public static let invalidClient = CannedResponse(
        status: 401, headers: jsonHeaders, body: #"{"error":"invalid_client","error_description":"Unauthorized"}"#)

    /// 429 with `Retry-After` (Google does not promise the header; the stand-in sends it so the
    /// client's honouring of it is exercised).
    public static func rateLimited(retryAfterSeconds: Int = 3) -> CannedResponse {
        CannedResponse(status: 429, headers: jsonHeaders.merging(["Retry-After": "\(retryAfterSeconds)"]) { $1 },
                       body: #"{"error":"rate_limit_exceeded","error_description":"Too Many Requests"}"#)
    }

    /// 500 `{"error":"internal_failure"}`, a retryable token-endpoint error.
    public static let internalFailure = CannedResponse(status: 500, headers: jsonHeaders, body: #"{"error":"internal_failure"}"#)

    /// 503 with an empty body, optionally with `Retry-After`.
    public static func unavailable(retryAfterSeconds: Int? = nil) -> CannedResponse {
        CannedResponse(status: 503, headers: retryAfterSeconds.map { ["Retry-After": "\($0)"] } ?? [:])
    }

    /// Names accepted as `"fault"` in `POST /_fake/faults`.
    static let googleFaultNames = ["invalid_grant", "invalid_client", "rate_limited", "internal_failure", "unavailable"]

    static func googleFault(named name: String, retryAfterSeconds: Int?) -> CannedResponse? {
        switch name {
        case "invalid_grant": .invalidGrant
        case "invalid_client": .invalidClient
        case "rate_limited": .rateLimited(retryAfterSeconds: retryAfterSeconds ?? 3)
        case "internal_failure": .internalFailure
        case "unavailable": .unavailable(retryAfterSeconds: retryAfterSeconds)
        default: nil
        }
    }
}

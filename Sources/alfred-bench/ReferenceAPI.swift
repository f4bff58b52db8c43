import AlfredCore
import ArgumentParser
import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import Sealing
import Store

/// `alfred-bench reference-api`: what `alfred-bench api` measures `alfred api` against. Two routes
/// written the plainest way Hummingbird and postgres-nio allow, doing the same work as ours and
/// nothing else:
///
/// - `GET /v1/preferences`: the same bearer token checked the same way (HS256 with the session key,
///   issuer, expiry), then one query that both finds the session open and reads the preferences.
/// - `POST /v1/devices/apns`: the token checked, the body decoded and validated, the APNs token
///   sealed with the host data key and its keyed hashes taken as ours are, then one
///   `INSERT … ON CONFLICT` that writes only while the session is open.
///
/// It runs as its own process, with the API's database role and pool size, so its CPU per request is
/// read from /proc the same way as the API's. Not for production: it has no rate limits, no metrics,
/// no error shape, and none of the shared-phone handling of device registration.
struct ReferenceAPI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference-api", abstract: "The bare reference routes `alfred-bench api` compares the API with (internal).",
        shouldDisplay: false)

    @Option var port: Int
    @Option(help: "The session key file `alfred api` uses (hex).") var sessionKeyFile: String
    @Option(help: "The host data key file `alfred api` uses.") var dataKeyFile: String

    func run() async throws {
        var logger = Logger(label: "reference-api")
        logger.logLevel = .critical
        guard let database = ProcessInfo.processInfo.environment["ALFRED_DATABASE_URL"] else {
            throw ValidationError("set ALFRED_DATABASE_URL")
        }
        let client = PostgresClient(configuration: try DatabaseURL(database).clientConfiguration(maxConnections: 16), backgroundLogger: logger)
        let text = try String(contentsOfFile: sessionKeyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let keyBytes = Hex.decode(text) else { throw ValidationError("the session key file must hold hex (as the bench writes it)") }
        let key = SymmetricKey(data: keyBytes)
        let routes = Routes(client: client, key: key, sealer: try HostSealer(keyFile: dataKeyFile), logger: logger)
        let router = Router()
        router.get("/v1/preferences") { request, _ in try await Self.reporting { try await routes.preferences(request) } }
        router.post("/v1/devices/apns") { request, context in try await Self.reporting { try await routes.registerDevice(request, context) } }
        router.get("/healthz") { _, _ in Response(status: .ok) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            try await app.run()
        }
    }

    /// A failure is printed (the bench shows this process's output when it goes wrong), then thrown.
    static func reporting(_ body: () async throws -> Response) async throws -> Response {
        do { return try await body() } catch {
            FileHandle.standardError.write(Data("reference route failed: \(String(reflecting: error))\n".utf8))
            throw error
        }
    }

    struct Routes: Sendable {
        let client: PostgresClient
        let key: SymmetricKey
        let sealer: HostSealer
        let logger: Logger

        struct Preferences: Encodable {
            let meeting_reminder_minutes: Int32
            let morning_brief_local_time: String
            let quiet_hours_start: String?
            let quiet_hours_end: String?
            let high_risk_requires_confirm: Bool
            let time_zone: String
        }

        struct Device: Decodable {
            let device_id: String
            let apns_token: String
            let environment: String
        }

        func preferences(_ request: Request) async throws -> Response {
            guard let (user, session) = caller(request) else { return Response(status: .unauthorized) }
            let rows = try await client.query("""
                SELECT coalesce(p.meeting_reminder_minutes, 15), coalesce(to_char(p.morning_brief_local_time, 'HH24:MI'), '08:00'),
                       CASE WHEN p.user_id IS NULL THEN '22:00' ELSE to_char(p.quiet_hours_start, 'HH24:MI') END,
                       CASE WHEN p.user_id IS NULL THEN '07:00' ELSE to_char(p.quiet_hours_end, 'HH24:MI') END,
                       coalesce(p.high_risk_requires_confirm, true), coalesce(p.time_zone, 'UTC')
                FROM sessions s LEFT JOIN preferences p ON p.user_id = s.user_id
                WHERE s.id = \(session) AND s.user_id = \(user) AND s.revoked_at IS NULL
                """, logger: logger)
            for try await (minutes, brief, start, end, highRisk, zone) in rows.decode((Int32, String, String?, String?, Bool, String).self) {
                let body = try JSONEncoder().encode(Preferences(
                    meeting_reminder_minutes: minutes, morning_brief_local_time: brief, quiet_hours_start: start, quiet_hours_end: end,
                    high_risk_requires_confirm: highRisk, time_zone: zone))
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
            }
            return Response(status: .unauthorized)
        }

        func registerDevice(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
            guard let (user, session) = caller(request) else { return Response(status: .unauthorized) }
            let device = try await request.decode(as: Device.self, context: context)
            guard (1...200).contains(device.device_id.count), (64...200).contains(device.apns_token.count),
                  device.apns_token.allSatisfy(\.isHexDigit), ["production", "sandbox"].contains(device.environment)
            else { return Response(status: .badRequest) }
            let token = device.apns_token.lowercased()
            let sealed = try sealer.seal(Array(token.utf8), purpose: .deviceToken, userID: user)
            let deviceRef = sealer.keyedHash("device-ref", user.uuidString.lowercased(), device.device_id)
            let tokenKey = sealer.keyedHash("device", token)
            let rows = try await client.query("""
                INSERT INTO devices (id, user_id, session_id, device_ref, apns_token_ciphertext, environment, token_key)
                SELECT \(UUID()), \(user), \(session), \(deviceRef), \(ByteBuffer(bytes: sealed)), \(device.environment), \(tokenKey)
                WHERE EXISTS (SELECT 1 FROM sessions WHERE id = \(session) AND user_id = \(user) AND revoked_at IS NULL)
                ON CONFLICT (user_id, device_ref) WHERE device_ref IS NOT NULL DO UPDATE
                    SET apns_token_ciphertext = EXCLUDED.apns_token_ciphertext, environment = EXCLUDED.environment,
                        token_key = EXCLUDED.token_key, session_id = EXCLUDED.session_id, retired_at = NULL, retired_reason = NULL,
                        updated_at = now()
                RETURNING 1
                """, logger: logger)
            for try await _ in rows { return Response(status: .ok, headers: [.contentType: "application/json"],
                                                       body: .init(byteBuffer: ByteBuffer(string: #"{"ok":true}"#))) }
            return Response(status: .unauthorized)
        }

        /// The user and session of a valid, unexpired access token (HS256 with the session key),
        /// decoded with the project's base64url as ours is, so the comparison is of the rest.
        private func caller(_ request: Request) -> (UUID, UUID)? {
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
            let parts = header.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let signature = Base64URL.decode(parts[2]), let payload = Base64URL.decode(parts[1]),
                  HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data("\(parts[0]).\(parts[1])".utf8), using: key),
                  let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
                  claims["iss"] as? String == "alfred-api", let expires = claims["exp"] as? Double, Date().timeIntervalSince1970 < expires,
                  let user = (claims["sub"] as? String).flatMap(UUID.init(uuidString:)),
                  let session = (claims["sid"] as? String).flatMap(UUID.init(uuidString:))
            else { return nil }
            return (user, session)
        }

    }
}

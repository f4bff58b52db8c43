import CommandSupport
import AlfredCore
import API
import ArgumentParser
import Assistant
import Delivery
import Sealing
import AsyncHTTPClient
import Foundation
import JobQueue
import Logging
import PostgresNIO
import ServiceLifecycle
import Store
import BrokerClient

/// `alfred api`: the HTTP API the iOS app talks to (sign-in, devices, preferences, audit, privacy,
/// feedback), on its own database role (`alfred_api`). Stateless; run as many as needed.
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Serve the app's HTTP API (RFC §7; the contract is Sources/API/openapi.yaml, served at /openapi.json).")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one and prints it).") var port = 8080
    @Option(help: "The app's bundle id: the audience of its Sign in with Apple tokens (env: ALFRED_BUNDLE_ID).") var bundleID: String?
    @Option(help: "Apple's key set (env: APPLE_KEYS_URL; default https://appleid.apple.com/auth/keys; the stand-in's for dev).")
    var appleKeysURL: String?
    @Option(help: "Host data key file, as the workers' (env: ALFRED_DATA_KEY_FILE): seals device tokens, keys identifier hashes.")
    var dataKeyFile: String?
    @Option(help: "Session key file, 32+ random bytes or 64+ hex characters (env: ALFRED_SESSION_KEY_FILE): signs access tokens.")
    var sessionKeyFile: String?
    @Flag(help: "Take the client address from X-Forwarded-For (only behind a trusted load balancer).") var trustForwardedFor = false
    @Option(help: "Requests per second each signed-in user may make (bursts of six times as many).") var userRate: Double = 10
    @Option(help: "Requests per second each client address may make (bursts of six times as many).") var addressRate: Double = 20
    @Option(help: "The token broker's socket (env: ALFRED_BROKER_SOCKET): connecting and disconnecting Google go through it.")
    var brokerSocket: String?
    @Option(help: "Google's authorization endpoint (env: GOOGLE_AUTH_URL; default https://accounts.google.com/o/oauth2/v2/auth).")
    var googleAuthURL: String?
    @Option(help: "The web OAuth client's id (env: GOOGLE_CLIENT_ID); its secret stays with the broker.") var googleClientID: String?
    @Option(help: "The web client's https redirect URI, as registered with Google (repeat; env: GOOGLE_REDIRECT_URI, comma-separated).")
    var googleRedirectURI: [String] = []
    @Option(help: "The iOS OAuth client's id (env: GOOGLE_IOS_CLIENT_ID).") var googleIOSClientID: String?
    @Option(help: "The iOS client's custom-scheme redirect URI (repeat; env: GOOGLE_IOS_REDIRECT_URI, comma-separated).")
    var googleIOSRedirectURI: [String] = []
    @Option(help: "Gmail push: the Pub/Sub push subscription's token audience (env: GOOGLE_PUBSUB_AUDIENCE); enables /v1/google/pubsub/push.")
    var pubsubAudience: String?
    @Option(help: "Gmail push: the push subscription's service account, the token's email (env: GOOGLE_PUBSUB_SERVICE_ACCOUNT).")
    var pubsubServiceAccount: String?
    @Option(help: "The Pub/Sub topic Gmail watches publish to (env: GMAIL_PUBSUB_TOPIC), told to relay-mode apps.")
    var pubsubTopic: String?
    @Option(name: .customLong("google-jwks-url"),
            help: "Google's signing keys for push tokens (env: GOOGLE_JWKS_URL; default https://www.googleapis.com/oauth2/v3/certs).")
    var googleJWKSURL: String?
    @OptionGroup var metrics: MetricsOption

    func run() async throws {
        let logger = database.bootstrapLogging()
        let env = ProcessInfo.processInfo.environment
        func setting(_ flag: String?, _ key: String, _ fallback: String? = nil) throws -> String {
            guard let value = flag ?? env[key] ?? fallback, !value.isEmpty else {
                throw ValidationError("missing \(key): pass the flag or set the environment variable")
            }
            return value
        }
        let sealer: HostSealer
        do { sealer = try HostSealer(keyFile: try setting(dataKeyFile, "ALFRED_DATA_KEY_FILE")) } catch let error as HostSealer.OpenError {
            throw ValidationError(error.description)
        }
        let sessionKey = try Self.readKey(try setting(sessionKeyFile, "ALFRED_SESSION_KEY_FILE"))
        var configuration = APIServer.Configuration(bundleID: try setting(bundleID, "ALFRED_BUNDLE_ID"))
        configuration.host = host
        configuration.port = port
        configuration.appleKeysURL = try setting(appleKeysURL, "APPLE_KEYS_URL", configuration.appleKeysURL)
        configuration.trustForwardedFor = trustForwardedFor
        guard userRate > 0, addressRate > 0 else { throw ValidationError("--user-rate and --address-rate must be above 0") }
        configuration.userLimit = .init(burst: userRate * 6, perSecond: userRate)
        configuration.addressLimit = .init(burst: addressRate * 6, perSecond: addressRate)
        configuration.google = try googleConnect(env)
        if let audience = pubsubAudience ?? env["GOOGLE_PUBSUB_AUDIENCE"], !audience.isEmpty {
            var push = APIServer.GmailPush(audience: audience, serviceAccount: try setting(pubsubServiceAccount, "GOOGLE_PUBSUB_SERVICE_ACCOUNT"))
            if let url = googleJWKSURL ?? env["GOOGLE_JWKS_URL"] { push.keysURL = url }
            push.topicName = (pubsubTopic ?? env["GMAIL_PUBSUB_TOPIC"]).flatMap { $0.isEmpty ? nil : $0 }
            configuration.gmailPush = push
        }
        let socketPath = brokerSocket ?? env["ALFRED_BROKER_SOCKET"]
        if configuration.google != nil, socketPath == nil {
            throw ValidationError("Google connect needs the token broker: pass --broker-socket or set ALFRED_BROKER_SOCKET")
        }
        let broker = socketPath.map { BrokerClient(configuration: .init(socketPath: $0)) }

        let listenHost = host
        let endpoint = metrics.endpoint(logger: logger)
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        let pool = PostgresClient(configuration: try database.database().clientConfiguration(maxConnections: 16), backgroundLogger: poolLogger)
        let jobs = PostgresJobStore(client: pool, logger: logger)
        let server = try APIServer(
            configuration: configuration,
            stores: .init(api: PostgresAPIStore(client: pool, logger: logger), privacy: PostgresPrivacyStore(client: pool, logger: logger),
                          audit: PostgresAuditStore(client: pool, logger: logger), jobs: jobs),
            sealer: sealer, sessionKey: sessionKey, http: HTTPClient.shared, broker: broker, runtime: .live(logger: logger),
            onListening: { port in
                // Printed for scripts and tests that start the API on port 0.
                FileHandle.standardOutput.write(Data("alfred api listening on http://\(listenHost):\(port)\n".utf8))
            })
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: pool), .init(service: server),
                       .init(service: SessionSweeper.service(store: PostgresAPIStore(client: pool, logger: logger), runtime: .live(logger: logger)))]
                + (endpoint.map { [.init(service: $0)] } ?? []),
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        await broker?.close()
    }

    /// The Google OAuth clients the app may connect through; nil when none is configured.
    func googleConnect(_ env: [String: String]) throws -> APIServer.GoogleConnect? {
        func list(_ flags: [String], _ key: String) -> [String] {
            flags.isEmpty ? (env[key] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                          : flags
        }
        var clients: [APIServer.GoogleConnect.Client] = []
        for (kind, id, uris, flag) in [
            (OAuthClientKind.web, googleClientID ?? env["GOOGLE_CLIENT_ID"], list(googleRedirectURI, "GOOGLE_REDIRECT_URI"), "--google-redirect-uri"),
            (OAuthClientKind.ios, googleIOSClientID ?? env["GOOGLE_IOS_CLIENT_ID"], list(googleIOSRedirectURI, "GOOGLE_IOS_REDIRECT_URI"),
             "--google-ios-redirect-uri"),
        ] {
            guard let id, !id.isEmpty else { continue }
            guard !uris.isEmpty else { throw ValidationError("the \(kind.rawValue) OAuth client needs its redirect URI: pass \(flag)") }
            if kind == .web, let plain = uris.first(where: { !$0.hasPrefix("https://") && !$0.hasPrefix("http://127.0.0.1") && !$0.hasPrefix("http://localhost") }) {
                throw ValidationError("the web client's redirect URI must be https (or loopback for development): \(plain)")
            }
            clients.append(.init(kind: kind, id: id, redirectURIs: uris))
        }
        guard !clients.isEmpty else { return nil }
        var google = APIServer.GoogleConnect(clients: clients)
        if let url = googleAuthURL ?? env["GOOGLE_AUTH_URL"] { google.authorizationURL = url }
        return google
    }

    /// 32 or more raw bytes, or 64 or more hex characters.
    static func readKey(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read the session key file \(path)") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count >= 64, let bytes = Hex.decode(text) { return bytes }
        guard data.count >= 32 else { throw ValidationError("the session key file \(path) must hold 32+ bytes or 64+ hex characters") }
        return Array(data)
    }
}

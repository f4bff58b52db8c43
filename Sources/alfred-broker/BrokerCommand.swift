import AlfredCore
import APNsProviderToken
import ArgumentParser
import CProcessGuard
import AsyncHTTPClient
import Attestation
import BrokerClient
import CommandSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeyServiceClient
import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle
import Store
import TokenBroker

/// `alfred-broker`: the token broker process, its own executable (the key service allows exactly this
/// file's measurement). It alone decrypts refresh tokens and calls Google's token endpoints; workers
/// reach it on a 0600 Unix socket and get access tokens only.
@main
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred-broker",
        abstract: "Run the token broker on a Unix socket (its own database role: alfred_broker).")

    static func main() async { await CommandEntry.main(BrokerCommand.self) }

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Socket workers connect to (env: ALFRED_BROKER_SOCKET).") var socket: String?
    @Option(help: "The key service's socket (env: ALFRED_KEY_SERVICE_SOCKET).") var keyService: String?
    @Option(help: "The attestor's socket (env: ALFRED_ATTESTOR_SOCKET): it measures this process and signs the evidence the key service checks.")
    var attestorSocket: String?
    @Option(help: "Google token endpoint (env: GOOGLE_TOKEN_URL).") var googleTokenURL: String?
    @Option(help: "Google revoke endpoint (env: GOOGLE_REVOKE_URL).") var googleRevokeURL: String?
    @Option(help: "OAuth client id (env: GOOGLE_CLIENT_ID). The secret comes only from GOOGLE_CLIENT_SECRET.") var googleClientID: String?
    @Option(help: "The iOS OAuth client's id (env: GOOGLE_IOS_CLIENT_ID): connectors made through it refresh without a secret.")
    var googleIOSClientID: String?
    @Option(name: .customLong("allow-uid"), help: "OS user id allowed to call the broker (repeat; default: this process's).")
    var allowedUIDs: [UInt32] = []
    @Option(name: .customLong("allow-connect-uid"),
            help: "OS user id allowed only to connect and disconnect Google (exchange_code, revoke): the API's (repeat).")
    var connectUIDs: [UInt32] = []
    @Option(help: "The group the callers share (the workers' and the API's accounts): the socket becomes 0660 and that group's (default: 0600).")
    var socketGroup: UInt32?
    @Option(help: "APNs signing key, Apple's .p8 (env: APNS_KEY_FILE); enables the apns_token op.") var apnsKeyFile: String?
    @Option(help: "The .p8 key's 10-character Key ID (env: APNS_KEY_ID).") var apnsKeyID: String?
    @Option(help: "The Apple developer Team ID (env: APNS_TEAM_ID).") var apnsTeamID: String?
    @OptionGroup var metrics: MetricsOption

    func run() async throws {
        // Nothing it executes gains privileges, and no process of its own user may trace it or read
        // its memory (/proc/<pid>/mem, core dumps): it holds decrypted refresh tokens.
        guard alfred_restrict_process() == 0 else {
            throw ValidationError("cannot restrict this process (prctl): \(String(cString: strerror(errno)))")
        }
        let logger = database.bootstrapLogging()
        let endpoint = metrics.endpoint(logger: logger)
        let env = ProcessInfo.processInfo.environment
        func setting(_ flag: String?, _ key: String, _ fallback: String? = nil) throws -> String {
            guard let value = flag ?? env[key] ?? fallback, !value.isEmpty else {
                throw ValidationError("missing \(key): pass the flag or set the environment variable")
            }
            return value
        }
        let attestor = AttestorClient(socketPath: try setting(attestorSocket, "ALFRED_ATTESTOR_SOCKET"))
        // The client secret from a file (GOOGLE_CLIENT_SECRET_FILE: a docker-compose secret or systemd
        // credential), else from the environment.
        let secret = try env["GOOGLE_CLIENT_SECRET_FILE"].map { file in
            do { return try PrivateFile.secretLine(URL(fileURLWithPath: file)) } catch { throw ValidationError("GOOGLE_CLIENT_SECRET_FILE: \(error)") }
        } ?? setting(nil, "GOOGLE_CLIENT_SECRET")
        var oauth = GoogleOAuthClient.Configuration(
            tokenURL: try setting(googleTokenURL, "GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token"),
            revokeURL: try setting(googleRevokeURL, "GOOGLE_REVOKE_URL", "https://oauth2.googleapis.com/revoke"),
            clientID: try setting(googleClientID, "GOOGLE_CLIENT_ID"), clientSecret: Redacted(secret))
        oauth.iosClientID = googleIOSClientID ?? env["GOOGLE_IOS_CLIENT_ID"]
        let socketPath = try setting(socket, "ALFRED_BROKER_SOCKET")
        let keySocket = try setting(keyService, "ALFRED_KEY_SERVICE_SOCKET")

        let url = try database.database()
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        let pool = PostgresClient(configuration: url.clientConfiguration(maxConnections: 8), backgroundLogger: poolLogger)
        let handler = GoogleTokenBroker(
            connectors: PostgresConnectorStore(client: pool, logger: logger),
            keys: KeyServiceClient(socketPath: keySocket),
            google: GoogleOAuthClient(configuration: oauth, http: HTTPClient.shared, logger: logger),
            evidence: attestor,
            logger: logger)
        var configuration = BrokerServer<GoogleTokenBroker>.Configuration(socketPath: socketPath)
        if !allowedUIDs.isEmpty { configuration.allowedUIDs = Set(allowedUIDs) }
        configuration.connectOnlyUIDs = Set(connectUIDs).subtracting(configuration.allowedUIDs)
        configuration.socketGroup = socketGroup
        if let keyFile = apnsKeyFile ?? env["APNS_KEY_FILE"] {
            let signer: ProviderTokenSigner
            do {
                signer = try ProviderTokenSigner(keyID: try setting(apnsKeyID, "APNS_KEY_ID"), teamID: try setting(apnsTeamID, "APNS_TEAM_ID"),
                                                 p8Path: keyFile)
            } catch let error as ProviderTokenError { throw ValidationError(error.description) }
            configuration.providerTokens = ProviderTokenMinter(signer: signer, onMint: { trigger in
                Counter(label: MetricName.apnsProviderTokenMints, dimensions: [("trigger", trigger.rawValue)]).increment()
                logger.info("minted an APNs provider token", metadata: ["alfred.apns.trigger": "\(trigger.rawValue)"])
            })
        }
        let server = BrokerServer(configuration: configuration, handler: handler, logger: logger, onListening: {
            logger.info("token broker listening", metadata: ["alfred.socket": "\(socketPath)"])
        })
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: pool), .init(service: server)] + (endpoint.map { [.init(service: $0)] } ?? []),
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

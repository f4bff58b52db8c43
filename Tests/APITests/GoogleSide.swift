import AlfredCore
import AlfredTesting
@testable import API
import AsyncHTTPClient
import Foundation
import KeyService
import Logging
import PostgresNIO
import ServiceLifecycle
import StandIns
import Store
import Attestation
import BrokerClient
import KeyServiceClient
import TokenBroker

/// What Google connect needs besides the API, each on its real socket: the Google stand-in (with a
/// web and an iOS OAuth client), the key service, and the token broker on its own database role,
/// reached through `BrokerClient` as `alfred api` reaches it.
struct GoogleSide: Sendable {
    static let webClientID = "alfred-api-test.apps.googleusercontent.com"
    static let webSecret = "GOCSPX-api-test-secret"
    static let webRedirect = "https://alfred.example.com/oauth/google/callback"
    static let iosClientID = "alfred-api-test-ios.apps.googleusercontent.com"
    static let iosRedirect = "com.googleusercontent.apps.alfred-api-test-ios:/oauth2redirect"
    static let subject = "100000000000000000077"
    static let email = "ada@example.com"
    /// Gmail push: the push subscription's token audience and service account.
    static let pushAudience = "https://alfred.example.com/v1/google/pubsub/push"
    static let pushAccount = "gmail-push@alfred-test.iam.gserviceaccount.com"
    static let topic = "projects/alfred-test/topics/gmail-events"

    /// The Google account that signs in; `grantedScopes` nil consents to everything asked.
    var grantedScopes: [String]?
    /// Allow-list a different broker binary, so the key service refuses this broker's evidence.
    var denyAttestation = false
    /// Where the API fetches Google's push-token keys (nil: the stand-in's JWKS).
    var pushKeysURL: String?

    struct Running: Sendable {
        let google: GoogleStandIn
        let broker: BrokerClient
        let connect: APIServer.GoogleConnect
        let logs: LogCapture
        /// The broker's wall time (access-token expiry), moved only by the test.
        let brokerClock: ManualClock
        /// Gmail push as the API verifies it: the stand-in's JWKS.
        let push: APIServer.GmailPush

        func tokenRequests(grantType: String) -> [RecordedRequest] {
            google.recordedRequests().filter { request in
                request.path == OAuthEndpoints.tokenPath && (request.form ?? []).contains { $0.name == "grant_type" && $0.value == grantType }
            }
        }

        func revokeRequests() -> [RecordedRequest] { google.recordedRequests().filter { $0.path == OAuthEndpoints.revokePath } }

        var liveRefreshTokens: [String] { google.liveRefreshTokens(subject: GoogleSide.subject) }
        var issuedRefreshTokens: [String] { google.issuedRefreshTokens(subject: GoogleSide.subject) }
    }

    func run<T: Sendable>(database: DatabaseURL, _ body: @Sendable (Running) async throws -> T) async throws -> T {
        let folder = URL(fileURLWithPath: "/tmp/alfred-gs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = folder.appendingPathComponent("broker-binary")
        try Data("the broker binary \(UUID())".utf8).write(to: executable)
        let allowed = denyAttestation ? folder.appendingPathComponent("another-binary") : executable
        if denyAttestation { try Data("another binary".utf8).write(to: allowed) }
        let authority = try LocalAttestation.Authority.create()
        let keys = try KeyDirectory.initialize(at: folder.appendingPathComponent("keys"), brokerExecutable: allowed,
                                               authority: authority).directory

        let logs = LogCapture()
        let quiet = TestDatabase.quietLogger
        let google = GoogleStandIn(configuration: .init(
            clients: [.init(id: Self.webClientID, secret: Self.webSecret, redirectURIs: [Self.webRedirect]),
                      .ios(id: Self.iosClientID, redirectURIs: [Self.iosRedirect])],
            users: [.init(subject: Self.subject, email: Self.email, grantedScopes: grantedScopes, timeZone: "UTC")]),
            logger: quiet)
        let keySocket = folder.appendingPathComponent("ks.sock").path
        let brokerSocket = folder.appendingPathComponent("broker.sock").path
        let keyListening = AsyncStream<Void>.makeStream()
        let keyServer = try KeyServer(configuration: .init(socketPath: keySocket, directory: keys), logger: logs.logger("keys"),
                                      onListening: { keyListening.continuation.yield() })
        var brokerURL = database
        brokerURL.username = "alfred_broker"
        let pool = PostgresClient(configuration: brokerURL.clientConfiguration(maxConnections: 4), backgroundLogger: quiet)
        return try await withRunningServices([google, keyServer, pool], logger: quiet) {
            for await _ in keyListening.stream { break }
            let endpoints = try await google.endpoints()
            var oauth = GoogleOAuthClient.Configuration(tokenURL: endpoints.tokenURL, revokeURL: endpoints.revokeURL,
                                                        clientID: Self.webClientID, clientSecret: Redacted(Self.webSecret))
            oauth.iosClientID = Self.iosClientID
            let logger = logs.logger("alfred.broker")
            let brokerClock = ManualClock(start: Date())
            let handler = GoogleTokenBroker(
                connectors: PostgresConnectorStore(client: pool, logger: logger),
                keys: KeyServiceClient(socketPath: keySocket, timeout: .seconds(60)),
                google: GoogleOAuthClient(configuration: oauth, http: HTTPClient.shared, logger: logger),
                evidence: try AuthoritySignedEvidence(authority: authority, executable: executable), logger: logger,
                now: brokerClock.nowDate)
            let brokerListening = AsyncStream<Void>.makeStream()
            let server = BrokerServer(configuration: .init(socketPath: brokerSocket), handler: handler, logger: logger,
                                      onListening: { brokerListening.continuation.yield() })
            return try await withRunningServices([server], logger: quiet) {
                for await _ in brokerListening.stream { break }
                var configuration = BrokerClient.Configuration(socketPath: brokerSocket)
                configuration.requestTimeout = .seconds(120)
                let broker = BrokerClient(configuration: configuration)
                var connect = APIServer.GoogleConnect(clients: [
                    .init(kind: .web, id: Self.webClientID, redirectURIs: [Self.webRedirect]),
                    .init(kind: .ios, id: Self.iosClientID, redirectURIs: [Self.iosRedirect]),
                ])
                connect.authorizationURL = endpoints.authorizationURL
                var push = APIServer.GmailPush(audience: Self.pushAudience, serviceAccount: Self.pushAccount)
                if let pushKeysURL { push.keysURL = pushKeysURL } else { push.keysURL = try await google.certsURL() }
                push.topicName = Self.topic
                do {
                    let value = try await body(Running(google: google, broker: broker, connect: connect, logs: logs, brokerClock: brokerClock, push: push))
                    await broker.close()
                    return value
                } catch {
                    await broker.close()
                    throw error
                }
            }
        }
    }
}

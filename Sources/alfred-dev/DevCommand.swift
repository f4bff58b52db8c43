import AlfredCore
import AlfredTestCluster
import ArgumentParser
import Assistant
import Delivery
import Sealing
import AsyncHTTPClient
import Crypto
import Foundation
import CommandSupport
import Logging
import PostgresNIO
import Synchronization
import ServiceLifecycle
import StandIns
import Store
import BrokerClient
#if canImport(Glibc)
import Glibc
#endif

/// The embedded default: a private Postgres in a temp directory, the Google and APNs stand-ins, and
/// the real processes (key service, token broker, worker on both queues) started from this binary.
/// A demo user connects Google through the broker, has meetings starting in the next minutes, an
/// urgent mail on its way and a morning brief due; every push the APNs stand-in accepts is printed
/// with its lateness. Ctrl-C stops everything and removes the cluster and the temp directory.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run everything on a private Postgres with the Google and APNs stand-ins and a demo user (Ctrl-C stops and removes it).")

    @Option(help: "Log level of the child processes (their logs go to files in the temp directory).") var logLevel = "info"
    @Option(help: "The worker's port for /metrics, /healthz, /readyz.") var metricsPort = 9464
    @Option(help: "Seconds until the first demo meeting starts (its reminder is due a minute before).") var firstMeetingIn = 120
    @Option(help: "The API's port (the app's and the curl lines in docs/api.md talk to it).") var apiPort = 8080
    @Option(help: "The Apple stand-in's port (it mints the demo's Sign in with Apple tokens).") var applePort = 8086
    @Option(help: "Seconds until the demo user asks, through the API, to delete everything (0: never).") var deleteAllAfter = 360
    @OptionGroup var migrations: MigrationsOption

    func run() async throws {
        let logger = AlfredLogging.bootstrapOnce(level: "warning")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-dev-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        print("starting a private PostgreSQL cluster…")
        let cluster = try await EmbeddedPostgres()
        do {
            try await run(on: cluster, folder: folder, logger: logger)
        } catch {
            await Self.remove(cluster, folder)
            throw error
        }
        await Self.remove(cluster, folder)
    }

    static func remove(_ cluster: EmbeddedPostgres, _ folder: URL) async {
        await cluster.shutdown()
        try? FileManager.default.removeItem(at: folder)
        print("stopped; the private cluster and \(folder.path) were removed")
    }

    private func run(on cluster: EmbeddedPostgres, folder: URL, logger: Logger) async throws {
        let url = cluster.url(database: "postgres")
        let migrator = try Migrator(directory: migrations.directory, logger: logger)
        let outcome = try await withPostgres(url, logger: logger) { try await migrator.migrate(client: $0) }
        print("migrated: \(outcome.applied.joined(separator: ", "))")

        guard firstMeetingIn >= 60 else { throw ValidationError("--first-meeting-in must be at least 60 (the reminder is a minute before)") }
        let demo = DevDemo(folder: folder, database: url, metricsPort: metricsPort, apiPort: apiPort, logLevel: logLevel,
                           firstMeetingMinutes: Double(firstMeetingIn) / 60, deleteAllAfter: deleteAllAfter,
                           tls: try TestCertificateAuthority.generate())
        let google = GoogleStandIn(configuration: demo.googleScenario(), logger: Logger(label: "google", factory: { _ in SwiftLogNoOpLogHandler() }))
        let apns = APNsStandIn(configuration: try demo.apnsConfiguration(), logger: Logger(label: "apns", factory: { _ in SwiftLogNoOpLogHandler() }))
        let apple = AppleStandIn(configuration: .init(port: applePort, audience: DevDemo.topic),
                                 logger: Logger(label: "apple", factory: { _ in SwiftLogNoOpLogHandler() }))
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: google), .init(service: apns), .init(service: apple),
                       .init(service: DevConductor(demo: demo, google: google, apns: apns, apple: apple, logger: logger))],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// The demo's fixed parts: names, keys and files.
struct DevDemo: Sendable {
    static let clientID = "alfred-dev.apps.googleusercontent.com"
    static let clientSecret = "alfred-dev-secret"
    static let redirectURI = "http://127.0.0.1:9/oauth/google/callback"
    /// The app's own client: an iOS OAuth client has no secret and redirects into the app's scheme.
    static let iosClientID = "alfred-dev-ios.apps.googleusercontent.com"
    static let iosRedirectURI = "com.googleusercontent.apps.alfred-dev-ios:/oauth2redirect"
    /// Gmail push: the topic watches publish to, and the push subscription's service account.
    static let gmailTopic = "projects/alfred-local/topics/gmail-events"
    static let pushAccount = "gmail-push@alfred-local.iam.gserviceaccount.com"
    static let email = "ada@example.com"
    static let subject = "100000000000000000001"
    static let teamID = "ALFREDTEAM"
    static let keyID = "ALFREDKEY1"
    static let topic = "com.example.alfred"
    static let deviceToken = (0..<32).map { String(format: "%02x", ($0 * 37 + 11) % 256) }.joined()
    /// The demo user's Apple account (`sub`) and the app's id for the iPhone.
    static let appleSubject = "001842.a1fredde4c0de.0001"
    static let deviceID = "demo-iphone"
    /// A relay-mode user (the pro tier): their app reads Gmail itself; Alfred only wakes it.
    static let relayAppleSubject = "001842.a1fredde4c0de.0002"
    static let relayEmail = "grace@example.com"
    static let relaySubject = "100000000000000000002"
    static let relayDeviceToken = (0..<32).map { String(format: "%02x", ($0 * 53 + 7) % 256) }.joined()

    let folder: URL
    let database: DatabaseURL
    let metricsPort: Int
    let apiPort: Int
    let logLevel: String
    let firstMeetingMinutes: Double
    let deleteAllAfter: Int
    /// The APNs stand-in's test CA and server certificate; the worker trusts the CA.
    let tls: TestCertificateAuthority
    let apnsKey = P256.Signing.PrivateKey()

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Meetings at +2 and +5 minutes by default (reminded 1 minute before), an all-day event (no reminder), and
    /// an urgent mail arriving a minute in, after the first mail check has set its starting point.
    func googleScenario() -> GoogleStandIn.Configuration {
        GoogleStandIn.Configuration(
            clients: [.init(id: Self.clientID, secret: Self.clientSecret, redirectURIs: [Self.redirectURI]),
                      .ios(id: Self.iosClientID, redirectURIs: [Self.iosRedirectURI])],
            users: [.init(subject: Self.subject, email: Self.email, timeZone: "UTC", events: [
                .init(id: "evt-board", summary: "Board sync", location: "Room 4.12", startInMinutes: firstMeetingMinutes, durationMinutes: 30,
                      selfResponse: "accepted", attendees: [.init(email: "grace@example.com", responseStatus: "accepted")],
                      hangoutLink: "https://meet.google.com/abc-defg-hij"),
                .init(id: "evt-design", summary: "Design review", startInMinutes: firstMeetingMinutes + 3, durationMinutes: 45,
                      selfResponse: "accepted"),
                .init(id: "evt-offsite", summary: "Offsite", allDay: true),
            ], messages: [
                .init(id: "m-001", from: "News <news@shop.example>", subject: "Weekly deals",
                      labelIds: ["INBOX", "UNREAD", "CATEGORY_PROMOTIONS"], headers: ["List-Unsubscribe": "<mailto:u@shop.example>"],
                      snippet: "This week only", arrivedMinutesAgo: 60),
                .init(id: "m-002", from: "Grace Hopper <grace@navy.example>", subject: "URGENT: production is down",
                      labelIds: ["INBOX", "UNREAD", "IMPORTANT"], snippet: "Can you look now?", arrivesInSeconds: 60),
            ]),
            // The relay user's mailbox: mail lands 50 s in; Alfred never reads it, it only wakes the app.
            .init(subject: Self.relaySubject, email: Self.relayEmail, timeZone: "UTC", messages: [
                .init(id: "r-001", from: "Ada <ada@example.com>", subject: "Lunch?", labelIds: ["INBOX", "UNREAD"],
                      snippet: "Are you free at noon?", arrivesInSeconds: 50),
            ])])
    }

    func apnsConfiguration() throws -> APNsStandIn.Configuration {
        var configuration = APNsStandIn.Configuration(teamID: Self.teamID, providerKeys: [Self.keyID: apnsKey.publicKey],
                                                      tls: tls)
        configuration.topic = Self.topic
        return configuration
    }
}

/// Starts the processes, seeds the user, prints pushes until shutdown, then stops the processes.
struct DevConductor: Service {
    let demo: DevDemo
    let google: GoogleStandIn
    let apns: APNsStandIn
    let apple: AppleStandIn
    let logger: Logger

    func run() async throws {
        let children = Children()
        do {
            try await conduct(children)
        } catch {
            await children.stop()
            throw error
        }
        await children.stop()
    }

    /// The demo's processes, stopped in reverse order of start.
    final class Children: Sendable {
        private let started = Mutex<[(name: String, process: ChildProcess)]>([])
        var all: [(name: String, process: ChildProcess)] { started.withLock { $0 } }
        func add(_ name: String, _ process: ChildProcess) { started.withLock { $0.append((name, process)) } }

        /// SIGTERM, up to 15 s each to drain, then SIGKILL: nothing outlives Ctrl-C. Waits without
        /// blocking a thread.
        func stop() async {
            let children = all.reversed()
            for child in children { child.process.signal(SIGTERM) }
            for child in children { await child.process.terminate(grace: .seconds(15)) }
        }
    }

    private func conduct(_ group: Children) async throws {
        let alfred = try Self.executable("alfred"), brokerBinary = try Self.executable("alfred-broker")
        let keyService = try Self.executable("alfred-key-service"), attestor = try Self.executable("alfred-attestor")
        func start(_ name: String, _ binary: String, _ arguments: [String], _ environment: [String: String] = [:]) throws -> ChildProcess {
            var env = environment
            env["ALFRED_LOG_LEVEL"] = demo.logLevel
            let child = try ChildProcess(binary, arguments, environment: env, outputPath: demo.path("\(name).log"))
            group.add(name, child)
            return child
        }

        // Key service: the attestation-gated keeper of the key that wraps refresh tokens. It allows
        // the alfred-broker executable's measurement; the attestor, alone holding the authority key,
        // measures the broker process and signs its evidence.
        let keysDir = demo.path("keys"), attestorDir = demo.path("attestor")
        let initialized = try await AlfredTestCluster.run(keyService, ["init", "--dir", keysDir, "--attestor-dir", attestorDir,
                                                                   "--broker-executable", brokerBinary])
        guard initialized.code == 0 else { throw ValidationError("alfred-key-service init failed:\n\(initialized.output)") }
        _ = try start("keys", keyService, ["serve", "--dir", keysDir, "--socket", demo.path("keys.sock")])
        _ = try start("attestor", attestor, ["--dir", attestorDir, "--socket", demo.path("attestor.sock"),
                                             "--allow-uid", "\(getuid())"])

        // APNs stand-in's CA and the provider's signing key (Apple's .p8 format).
        try demo.tls.caCertificatePEM.write(toFile: demo.path("apns-ca.pem"), atomically: true, encoding: .utf8)
        try Self.writePrivate(demo.apnsKey.pemRepresentation, to: demo.path("apns.p8"))
        try Self.writePrivate(HostSealer.generateKeyBytes().map { String(format: "%02x", $0) }.joined(), to: demo.path("host.key"))

        // Broker: its own database role; Google's token endpoint is the stand-in's.
        let endpoints = try await google.endpoints()
        var brokerURL = demo.database
        brokerURL.username = "alfred_broker"
        let brokerSocket = demo.path("broker.sock")
        let broker = try start("broker", brokerBinary, [], [
            "ALFRED_DATABASE_URL": brokerURL.secretString.unsafeValue, "ALFRED_BROKER_SOCKET": brokerSocket,
            "ALFRED_KEY_SERVICE_SOCKET": demo.path("keys.sock"), "ALFRED_ATTESTOR_SOCKET": demo.path("attestor.sock"),
            "GOOGLE_CLIENT_ID": DevDemo.clientID, "GOOGLE_CLIENT_SECRET": DevDemo.clientSecret, "GOOGLE_IOS_CLIENT_ID": DevDemo.iosClientID,
            "GOOGLE_TOKEN_URL": endpoints.tokenURL, "GOOGLE_REVOKE_URL": endpoints.revokeURL,
            "APNS_KEY_FILE": demo.path("apns.p8"), "APNS_KEY_ID": DevDemo.keyID, "APNS_TEAM_ID": DevDemo.teamID,
        ])
        let client = BrokerClient(configuration: .init(socketPath: brokerSocket))
        defer { Task { await client.close() } }
        try await Self.waitForBroker(client, broker, log: demo.path("broker.log"))

        // The API, on its own role, as the app reaches it.
        try Self.writePrivate((0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined(),
                              to: demo.path("session.key"))
        var apiURL = demo.database
        apiURL.username = "alfred_api"
        // Gmail's Pub/Sub pushes go to the API, as a push subscription would send them.
        let pushURL = "http://127.0.0.1:\(demo.apiPort)/v1/google/pubsub/push"
        google.pushGmailChanges(to: .init(endpoint: pushURL, serviceAccount: DevDemo.pushAccount))
        let apiProcess = try start("api", alfred, [
            "api", "--port", "\(demo.apiPort)", "--metrics-port", "\(demo.metricsPort + 1)",
            "--bundle-id", DevDemo.topic, "--apple-keys-url", try await apple.keysURL(),
            "--data-key-file", demo.path("host.key"), "--session-key-file", demo.path("session.key"),
            "--broker-socket", brokerSocket, "--google-auth-url", endpoints.authorizationURL,
            "--google-client-id", DevDemo.clientID, "--google-redirect-uri", DevDemo.redirectURI,
            "--google-ios-client-id", DevDemo.iosClientID, "--google-ios-redirect-uri", DevDemo.iosRedirectURI,
            "--pubsub-audience", pushURL, "--pubsub-service-account", DevDemo.pushAccount, "--google-jwks-url", try await google.certsURL(),
            "--pubsub-topic", DevDemo.gmailTopic,
        ], ["ALFRED_DATABASE_URL": apiURL.secretString.unsafeValue])
        let api = DevAPIClient(base: "http://127.0.0.1:\(demo.apiPort)", http: HTTPClient.shared)
        try await api.waitUntilUp { apiProcess.poll() == nil }

        // The demo user, through the API as the app does it: Sign in with Apple, preferences (reminders
        // a minute ahead, the brief due in 3.5 minutes), and the iPhone's APNs token.
        let nonce = UUID().uuidString
        let identity = try apple.identityToken(.init(subject: DevDemo.appleSubject, audience: DevDemo.topic, nonce: nonce))
        let session = try await api.expect(200, .POST, "/v1/auth/ios/session",
                                           json: ["apple_identity_token": identity, "device_id": DevDemo.deviceID, "nonce": nonce])
        guard let access = session["access_token"] as? String, let refresh = session["refresh_token"] as? String else {
            throw ValidationError("sign-in returned no tokens")
        }
        _ = try await api.expect(200, .PUT, "/v1/preferences", token: access, json: [
            "meeting_reminder_minutes": 1, "morning_brief_local_time": Self.utcTime(Date().addingTimeInterval(3 * 60 + 30)),
            "high_risk_requires_confirm": true, "time_zone": "UTC",
        ])
        apns.register(deviceToken: DevDemo.deviceToken)
        _ = try await api.expect(200, .POST, "/v1/devices/apns", token: access, json: [
            "device_id": DevDemo.deviceID, "apns_token": DevDemo.deviceToken, "environment": "sandbox",
        ])
        print("signed in through the API (Sign in with Apple at the Apple stand-in), set preferences, registered the iPhone")

        // Google, as the app connects it: the API starts the flow (iOS client, PKCE), the "browser"
        // consents at the stand-in and comes back to the app's scheme, and the app hands code and state
        // to the API, whose broker exchanges the code.
        let userID = try DevAPIClient.userID(of: access)
        let started = try await api.expect(200, .POST, "/v1/connectors/google/start", token: access,
                                           json: ["redirect_uri": DevDemo.iosRedirectURI])
        guard let authURL = started["auth_url"] as? String else { throw ValidationError("connect start returned no auth_url") }
        let redirect = try await ConsentBrowser.open(authURL)
        guard let code = redirect.code, let state = redirect.state else {
            throw ValidationError("Google's consent page sent no code back (\(redirect.error ?? "no error"))")
        }
        let connected = try await api.expect(200, .POST, "/v1/connectors/google/callback", token: access,
                                             json: ["code": code, "state": state])
        try await relayUser(api: api, apple: apple)
        print("connected Google through the API (connector \(connected["connector_id"] as? String ?? "?"), scopes granted: \((connected["granted_scopes"] as? [String])?.count ?? 0))")

        var workerURL = demo.database
        workerURL.username = "alfred_worker"
        _ = try start("worker", alfred, [
            "worker", "--queue", "default", "--queue", "delivery", "--metrics-port", "\(demo.metricsPort)",
            "--broker-socket", brokerSocket, "--data-key-file", demo.path("host.key"),
            "--google-base-url", try await google.baseURL(), "--apns-topic", DevDemo.topic, "--apns-url", try await apns.baseURL(),
            "--apns-ca-file", demo.path("apns-ca.pem"), "--gmail-topic", DevDemo.gmailTopic,
        ], ["ALFRED_DATABASE_URL": workerURL.secretString.unsafeValue])

        let deletion = demo.deleteAllAfter > 0 ? "; it asks to delete everything at +\(Self.minutes(Double(demo.deleteAllAfter) / 60)) min" : ""
        print("""

            running: API, key service, attestor, token broker, worker (queues default + delivery), Google, APNs and Apple stand-ins
              api       http://127.0.0.1:\(demo.apiPort)   (contract: /openapi.json; try the curl lines in docs/api.md)
              apple     \(try await apple.baseURL())   (mints Sign in with Apple tokens: POST /_fake/identity-token)
              database  \(demo.database)
              metrics   http://127.0.0.1:\(demo.metricsPort)/metrics (worker), http://127.0.0.1:\(demo.metricsPort + 1)/metrics (api)
              logs      \(demo.folder.path)/{api,keys,attestor,broker,worker}.log
            demo user \(DevDemo.email): meetings at +\(Self.minutes(demo.firstMeetingMinutes)) and +\(Self.minutes(demo.firstMeetingMinutes + 3)) min (reminded 1 min before), an urgent mail at +1 min,
            the morning brief at +3.5 min\(deletion). Each push prints below as the APNs stand-in accepts it. Ctrl-C stops.

            """)
        try await printPushes(children: group.all, userID: userID, api: api, refresh: refresh)
    }

    /// Relay mode, as a pro-tier app does it: sign in, register the iPhone, tell the API which mailbox
    /// the app watches (the API answers the topic), and call Gmail's `watch` with that topic itself
    /// (with the app's own Google token). Gmail's pushes then wake the app with silent pushes.
    private func relayUser(api: DevAPIClient, apple: AppleStandIn) async throws {
        let nonce = UUID().uuidString
        let identity = try apple.identityToken(.init(subject: DevDemo.relayAppleSubject, audience: DevDemo.topic, nonce: nonce))
        let session = try await api.expect(200, .POST, "/v1/auth/ios/session",
                                           json: ["apple_identity_token": identity, "device_id": "relay-iphone", "nonce": nonce])
        guard let access = session["access_token"] as? String else { throw ValidationError("relay sign-in returned no token") }
        apns.register(deviceToken: DevDemo.relayDeviceToken)
        _ = try await api.expect(200, .POST, "/v1/devices/apns", token: access, json: [
            "device_id": "relay-iphone", "apns_token": DevDemo.relayDeviceToken, "environment": "sandbox",
        ])
        // The proof the mailbox is theirs: the Google ID token the app got when its user signed in to Google.
        let proof = try google.mailboxIDToken(email: DevDemo.relayEmail, audience: DevDemo.iosClientID)
        let relay = try await api.expect(200, .PUT, "/v1/relay/mailbox", token: access,
                                         json: ["email_address": DevDemo.relayEmail, "google_id_token": proof])
        guard let topic = relay["topic_name"] as? String else { throw ValidationError("relay registration returned no topic") }
        let token = try google.mintAccessToken(forUser: DevDemo.relayEmail, scopes: ["https://www.googleapis.com/auth/gmail.metadata"])
        var request = HTTPClientRequest(url: try await google.gmailBaseURL() + "/users/me/watch")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"topicName": "\#(topic)", "labelIds": ["INBOX"]}"#))
        let watched = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await watched.body.collect(upTo: 1 << 20)
        guard watched.status == .ok else { throw ValidationError("the relay app's Gmail watch answered \(watched.status.code)") }
        print("relay-mode user \(DevDemo.relayEmail) signed in; their app watches its own mailbox on \(topic) (Alfred keeps only a keyed hash of the address)")
    }

    /// The demo's last act, through the API: the user asks for delete-all and watches it finish (the
    /// account, and with it the session, is gone when it has).
    private func deleteEverything(_ api: DevAPIClient, refresh: String) async throws {
        // The access token from sign-in may have expired (15 minutes): refresh, as the app would.
        let session = try await api.expect(200, .POST, "/v1/auth/refresh", json: ["refresh_token": refresh])
        guard let access = session["access_token"] as? String else { throw ValidationError("refresh returned no access token") }
        let asked = try await api.expect(202, .POST, "/v1/privacy/delete-all", token: access)
        let request = asked["request_id"] as? String ?? "?"
        print("\(Date().formatted(.iso8601.time(includingFractionalSeconds: false)))  delete-all requested through the API (request \(request))")
        for _ in 0..<600 {
            let status = try await api.call(.GET, "/v1/privacy/delete-all/\(request)", token: access)
            if status.status == 401 {
                print("\(Date().formatted(.iso8601.time(includingFractionalSeconds: false)))  delete-all completed: the demo user and their data are gone (the session no longer works)")
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        print("delete-all has not completed after 2 minutes; see the worker's log")
    }

    /// Polls the stand-in's record of accepted pushes and prints each new one with its lateness
    /// (acceptance minus the ledger's scheduled time), until shutdown or a child dies.
    private func printPushes(children: [(name: String, process: ChildProcess)], userID: UUID, api: DevAPIClient,
                             refresh: String) async throws {
        let started = ContinuousClock.now
        try await withPostgres(demo.database, logger: logger) { owner in
            var seen = 0, pushed = 0, deleted = false
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                if !deleted, demo.deleteAllAfter > 0, started.duration(to: .now) > .seconds(demo.deleteAllAfter) {
                    deleted = true
                    try await deleteEverything(api, refresh: refresh)
                }
                let pushes = apns.deliveries()
                for push in pushes.dropFirst(seen) {
                    // A relay wake-up's collapse id is its mailbox's, not a ledger key.
                    var kind = push.pushType == "background" ? "mail.relay" : push.pushType, lateness = ""
                    if let key = push.collapseID,
                       let row = try await owner.query("SELECT kind, scheduled_at FROM notifications WHERE idempotency_key = \(key)",
                                                       logger: TestDatabase.quietLogger).collect().first {
                        let (k, scheduled) = try row.decode((String, Date?).self)
                        kind = k
                        if let scheduled { lateness = String(format: "lateness %.2f s", push.receivedAt.timeIntervalSince(scheduled)) }
                    }
                    let alert = (try? JSONSerialization.jsonObject(with: push.payload) as? [String: Any])
                        .flatMap { ($0["aps"] as? [String: Any])?["alert"] as? [String: String] }
                    let time = push.receivedAt.formatted(.iso8601.time(includingFractionalSeconds: false))
                    print("\(time)  push  \(kind.padding(toLength: 16, withPad: " ", startingAt: 0)) "
                          + "\"\(alert?["title"] ?? "(silent)")\" — \(alert?["body"] ?? "")   \(lateness)")
                }
                seen = pushes.count
                // Gmail's Pub/Sub pushes (the stand-in sends them when mail lands in a watched inbox):
                // the API verifies each and brings the mail check forward.
                let gmailPushes = google.sentPushes()
                for push in gmailPushes.dropFirst(pushed) {
                    let effect = push.email == DevDemo.relayEmail ? "relay wake-up queued" : "mail check brought forward"
                    print("\(Date().formatted(.iso8601.time(includingFractionalSeconds: false)))  gmail push  Pub/Sub -> API answered \(push.status): \(effect)")
                }
                pushed = gmailPushes.count
                if let dead = children.first(where: { $0.process.poll() != nil }) {
                    print("\(dead.name) exited unexpectedly; its log:\n\(dead.process.output.suffix(3000))")
                    throw ValidationError("\(dead.name) exited")
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    static func minutes(_ value: Double) -> String { value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value) }

    /// A sibling executable `swift build` made beside this one.
    static func executable(_ name: String) throws -> String {
        do { return try AlfredBinary.named(name) } catch {
            throw ValidationError("\(name) is missing beside alfred-dev: run `swift build` (it builds every executable) first")
        }
    }

    /// Created 0600 by open(2) itself (no window with the umask's mode).
    static func writePrivate(_ text: String, to path: String) throws {
        try PrivateFile.create(URL(fileURLWithPath: path), contents: Data(text.utf8))
    }

    static func utcTime(_ date: Date) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    /// Waits until the broker answers a ping, for as long as it runs (up to three minutes: a debug
    /// build on a loaded 2-core machine can take seconds to answer its first ping; each ping may
    /// take five).
    static func waitForBroker(_ client: BrokerClient, _ broker: ChildProcess, log: String) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(180))
        while clock.now < deadline {
            if broker.poll() != nil { break }
            if (try? await client.ping(timeout: .seconds(5))) != nil { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("the token broker did not start; see \(log):\n\(broker.output.suffix(2000))")
    }
}

import AlfredCore
import AlfredTestCluster
import Foundation
import KeyService
import ServiceLifecycle
import JobQueue
import PostgresNIO
import StandIns
import Store
import Testing
import WorkerProcess
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
@testable import TokenBroker

/// The broker against real Postgres, the real key service and the Google stand-in, over its socket.
@Suite(.timeLimit(.minutes(5))) struct TokenBrokerEndToEndTests {
    @Test func connectThenRefreshThroughAttestation() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            #expect(try await running.status(id) == "ACTIVE")
            let first = try await running.broker.accessToken(connectorID: id.uuidString)
            #expect(running.refreshRequests() == 0, "the access token from the code exchange is cached")
            #expect(try running.google.validateAccessToken(first.token.unsafeValue).subject == BrokerWorld.subject)

            // A restarted broker (empty cache) must decrypt the stored token and refresh at Google.
            let cold = running.makeHandler()
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            let refreshed = try await cold.accessToken(connectorID: id.uuidString, context: context)
            #expect(running.refreshRequests() == 1)
            #expect(try running.google.validateAccessToken(refreshed.token.unsafeValue).subject == BrokerWorld.subject)
            #expect(refreshed.expiresAt > Date().addingTimeInterval(3000))
        }
    }

    @Test func aHundredConcurrentRequestsForOneConnectorCauseOneRefresh() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            let cold = running.makeHandler()
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await cold.accessToken(connectorID: id.uuidString, context: context).token.unsafeValue }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1, "everyone got the same token")
            #expect(running.refreshRequests() == 1, "single flight: one refresh at Google")
        }
    }

    @Test func invalidGrantMarksTheConnectorForReconsentWithoutARetryStorm() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            for token in running.google.issuedRefreshTokens(subject: BrokerWorld.subject) {
                _ = running.google.revokeRefreshToken(token)  // the user removed Alfred in their Google account
            }
            let cold = running.makeHandler()
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            // The refresh Google refuses, then the stored status: both the same non-retryable answer.
            for _ in 0..<2 {
                let error = await #expect(throws: BrokerError.self) {
                    _ = try await cold.accessToken(connectorID: id.uuidString, context: context)
                }
                #expect(error?.code == .needsReconsent)
                #expect(error?.retryable == false)
            }
            #expect(try await running.status(id) == "NEEDS_RECONSENT")
            #expect(running.refreshRequests() == 1, "one call to Google, then the stored status answers")
        }
    }

    @Test func revokeCallsGoogleAndRetiresTheConnector() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            try await running.broker.revoke(connectorID: id.uuidString)
            #expect(running.google.recordedRequests().contains { $0.path == OAuthEndpoints.revokePath && $0.method == "POST" })
            #expect(try await running.status(id) == "REVOKED")
            do {
                _ = try await running.broker.accessToken(connectorID: id.uuidString)
                Issue.record("a revoked connector still produced a token")
            } catch let error as BrokerError {
                #expect(error.code == .notFound)
            }
            try await running.broker.revoke(connectorID: id.uuidString)  // idempotent
        }
    }

    /// Another broker process revoked one connector and Google sent another back for consent: this
    /// broker's cache still holds both tokens, and serves neither.
    @Test func aCachedTokenIsNotServedOnceTheConnectorIsNoLongerActive() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let revoked = try await running.connect(), reconsent = try await running.connect()
            for id in [revoked, reconsent] { _ = try await running.broker.accessToken(connectorID: id.uuidString) }
            try await TestDatabase.withClient(running.world.ownerURL) { owner in
                _ = try await owner.query("UPDATE connectors SET status = 'REVOKED' WHERE id = \(revoked)",
                                          logger: TestDatabase.quietLogger).collect()
                _ = try await owner.query("UPDATE connectors SET status = 'NEEDS_RECONSENT' WHERE id = \(reconsent)",
                                          logger: TestDatabase.quietLogger).collect()
            }
            for (id, code) in [(revoked, BrokerError.Code.notFound), (reconsent, .needsReconsent)] {
                let error = await #expect(throws: BrokerError.self) {
                    _ = try await running.broker.accessToken(connectorID: id.uuidString)
                }
                #expect(error?.code == code)
            }
            #expect(running.refreshRequests() == 0, "answered from the stored status, not by asking Google")
        }
    }

    @Test func rotationRewrapsConnectorsAndTheyStillRefresh() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let ids = [try await running.connect(), try await running.connect()]
            let version = try world.keys.rotate(keyID: "kek-main")
            #expect(version == 2)
            let handler = running.makeHandler()
            let store = PostgresConnectorStore(client: running.pool, logger: running.logger)
            let stale = try await store.needingRewrap(keyID: "kek-main", activeVersion: version, after: nil, limit: 10)
            #expect(Set(stale) == Set(ids))
            for id in stale { #expect(try await handler.rewrap(id)) }
            #expect(try await store.needingRewrap(keyID: "kek-main", activeVersion: version, after: nil, limit: 10).isEmpty)
            for id in ids {
                #expect(try await store.secret(id)?.keyVersion == 2)
                let cold = running.makeHandler()
                let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
                _ = try await cold.accessToken(connectorID: id.uuidString, context: context)
            }
            #expect(running.refreshRequests() == 2, "both connectors refreshed after rotation, no reconnect")
        }
    }

    @Test func aBrokerWhoseBinaryIsNotAllowListedGetsNoKeys() async throws {
        let world = try await BrokerWorld.make(allowExecutable: false)
        defer { world.remove() }
        try await world.run { running in
            do {
                _ = try await running.connect()
                Issue.record("an unlisted broker binary connected")
            } catch let error as BrokerError {
                #expect(error.code == .denied)
                #expect(error.message.contains("measurement_not_allowed"))
            }
        }
    }

    /// The refresh token planted by the connect flow appears nowhere outside the broker's memory:
    /// not in any table (as text or inside any bytea), not in any log line, not in this process's
    /// environment (the worker side of the socket).
    @Test func theCanaryRefreshTokenNeverLeaks() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        let canaries = try await world.run { running in
            let id = try await running.connect()
            _ = try await running.broker.accessToken(connectorID: id.uuidString)
            let cold = running.makeHandler()
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            _ = try await cold.accessToken(connectorID: id.uuidString, context: context)
            try await running.broker.revoke(connectorID: id.uuidString)
            return running.google.issuedRefreshTokens(subject: BrokerWorld.subject)
        }
        #expect(!canaries.isEmpty)
        let dump = try await TestDatabase.withClient(world.ownerURL) { owner in
            var text = ""
            var tables: [String] = []
            for try await table in try await owner.query("""
                SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
                """, logger: TestDatabase.quietLogger).decode(String.self) { tables.append(table) }
            for table in tables {
                // Every row as JSON: bytea columns appear as hex, so search both forms.
                let rows = try await owner.query("SELECT row_to_json(t)::text FROM \(unescaped: "\"\(table)\"") t", logger: TestDatabase.quietLogger)
                for try await row in rows.decode(String.self) { text += row + "\n" }
            }
            return text
        }
        let logs = world.logs.all.joined(separator: "\n")
        let environment = ProcessInfo.processInfo.environment.map { "\($0)=\($1)" }.joined(separator: "\n")
        #expect(dump.contains("connectors") || dump.contains("ACTIVE") || dump.contains("REVOKED"))
        for canary in canaries {
            let hex = Array(canary.utf8).map { String(format: "%02x", $0) }.joined()
            #expect(!dump.contains(canary) && !dump.contains(hex), "refresh token found in the database")
            #expect(!logs.contains(canary), "refresh token found in a log line")
            #expect(!environment.contains(canary))
        }
        #expect(!logs.isEmpty, "the broker did log (so the search meant something)")
    }
}

/// Transient trouble at Google's token endpoint: retried with backoff inside the broker, or handed
/// back as retryable when Google asks for a longer pause than the broker waits out.
@Suite(.timeLimit(.minutes(5))) struct TokenBrokerTransientFailureTests {
    func coldRefresh(_ running: BrokerWorld.Running, _ id: UUID) async throws -> BrokerAccessToken {
        let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
        return try await running.makeHandler().accessToken(connectorID: id.uuidString, context: context)
    }

    @Test func a503AndA429AreRetriedAndTheRefreshSucceeds() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            _ = try running.google.injectFault(FaultRule(
                match: .init(method: "POST", path: OAuthEndpoints.tokenPath), response: .unavailable(), times: 1))
            _ = try running.google.injectFault(FaultRule(
                match: .init(method: "POST", path: OAuthEndpoints.tokenPath), response: .rateLimited(retryAfterSeconds: 1), times: 1))
            _ = try await coldRefresh(running, id)
            #expect(running.refreshRequests() == 3, "two transient failures, then success")
            #expect(try await running.status(id) == "ACTIVE")
        }
    }

    @Test func aStalledGoogleTokenEndpointFailsEveryWaiterWithinTheRefreshDeadline() async throws {
        // Google's answers are held on a clock only the test moves: only the deadline can end a wait.
        let googleTime = ManualClock()
        var world = try await BrokerWorld.make()
        world.googleLatencyClock = googleTime
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            _ = try running.google.injectFault(FaultRule(
                match: .init(method: "POST", path: OAuthEndpoints.tokenPath), response: nil, delayMilliseconds: 600_000, times: nil))
            var configuration = GoogleTokenBroker.Configuration()
            configuration.refreshDeadline = .seconds(1)
            let handler = running.makeHandler(configuration: configuration)
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            // Three callers share the stalled refresh (or, on a starved machine, a later one); all get a
            // retryable answer from the deadline, none hangs (the suite's time limit would catch that).
            let outcomes = await withTaskGroup(of: BrokerError?.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        do { _ = try await handler.accessToken(connectorID: id.uuidString, context: context); return nil } catch {
                            return error as? BrokerError
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0?.code == .upstreamUnavailable && $0?.retryable == true }, "\(outcomes)")
            #expect(outcomes.allSatisfy { $0?.message.contains("took longer than") == true }, "the deadline ended them: \(outcomes)")
            #expect(try await running.status(id) == "ACTIVE")
            // Let whatever Google still holds go, and hold nothing more, so the stand-in can stop.
            running.google.removeAllFaults()
            googleTime.advance(by: .seconds(600))
        }
    }

    @Test func anUnreachableKeyServiceIsRetryableAndCostsTheUserNothing() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            // Nobody listens there: once the client's limit for connecting passes, the broker gives up.
            let handler = running.makeHandler(keySocket: world.folder.appendingPathComponent("no-key-service.sock").path,
                                              keyTimeout: .seconds(1))
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            do {
                _ = try await handler.accessToken(connectorID: id.uuidString, context: context)
                Issue.record("a token without the key service")
            } catch let error as BrokerError {
                #expect(error.code == .upstreamUnavailable)
                #expect(error.retryable, "the job asking for the token retries later")
            }
            #expect(try await running.status(id) == "ACTIVE")
            #expect(running.refreshRequests() == 0, "Google was not called without a decrypted token")
        }
    }

    @Test func aLongRetryAfterIsHandedBackAsRetryableWithoutMarkingTheConnector() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            _ = try running.google.injectFault(FaultRule(
                match: .init(method: "POST", path: OAuthEndpoints.tokenPath), response: .rateLimited(retryAfterSeconds: 120), times: nil))
            do {
                _ = try await coldRefresh(running, id)
                Issue.record("a rate-limited refresh succeeded")
            } catch let error as BrokerError {
                #expect(error.code == .upstreamUnavailable)
                #expect(error.retryable, "the job asking for the token retries later")
            }
            #expect(running.refreshRequests() == 1, "the broker did not hammer a rate-limited endpoint")
            #expect(try await running.status(id) == "ACTIVE", "a transient failure never costs the user their connection")
        }
    }
}

/// Key rotation as an operator runs it: rotate, enqueue the sweep, and let an ordinary worker — on
/// the `alfred_worker` role, which cannot read tokens — drive the broker to rewrap every connector.
@Suite(.timeLimit(.minutes(5))) struct RewrapJobsTests {
    @Test func aWorkerRewrapsEveryConnectorThroughTheBroker() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            var ids: [UUID] = []
            for _ in 0..<3 { ids.append(try await running.connect()) }
            let version = try world.keys.rotate(keyID: "kek-main")

            var workerURL = world.ownerURL
            workerURL.username = "alfred_worker"
            let logger = TestDatabase.quietLogger
            // The worker as `alfred worker --broker-socket` builds it: the rewrap sweep and rewraps are its kinds.
            var configuration = WorkerConfiguration()
            configuration.pollInterval = .milliseconds(200)
            let worker = WorkerApp(database: workerURL, configuration: configuration, parts: WorkerParts(broker: running.broker),
                                   runtime: .live(logger: logger))
            let owner = PostgresConnectorStore(client: running.pool, logger: logger)
            try await withRunningServices([worker], logger: logger) {
                _ = try await worker.jobs.enqueue([try RewrapJobs.sweepJob(keyID: "kek-main", toVersion: version)], onConflict: .keep)
                let done = try await eventually {
                    try await owner.needingRewrap(keyID: "kek-main", activeVersion: version, after: nil, limit: 10).isEmpty
                }
                #expect(done, "every connector moved to v\(version)")
            }
            for id in ids {
                let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
                _ = try await running.makeHandler().accessToken(connectorID: id.uuidString, context: context)
            }
            #expect(running.refreshRequests() == 3, "each connector still refreshes after rotation")
        }
    }
}

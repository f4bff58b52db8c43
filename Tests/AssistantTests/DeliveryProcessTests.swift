import AlfredCore
import AlfredTesting
import APNs
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Testing
import TokenBroker
#if canImport(Glibc)
import Glibc
#endif

/// Real `alfred worker` processes on the delivery queue, getting the provider token from a broker
/// socket (only its `apns_token` op is used here), killed the way machines die.
@Suite struct DeliveryProcessTests {
    /// A broker that can only mint APNs provider tokens.
    struct ProviderTokensOnly: BrokerRequestHandler {
        func accessToken(connectorID: String, forceRefresh: Bool, context: BrokerRequestContext) async throws -> BrokerAccessToken {
            throw BrokerError(code: .notFound, message: "no connectors here", retryable: false)
        }
        func exchangeCode(_ exchange: CodeExchange, context: BrokerRequestContext) async throws -> ConnectedConnector {
            throw BrokerError(code: .notFound, message: "no connectors here", retryable: false)
        }
        func revoke(connectorID: String, context: BrokerRequestContext) async throws {}
        func rewrap(connectorID: String, context: BrokerRequestContext) async throws -> Int { 1 }
    }

    @Test func aWorkerKilledAfterAPNsAcceptedAndBeforeTheRecordDoesNotCauseASecondPush() async throws {
        var world = DeliveryWorld()
        world.inProcessWorker = false
        try await world.run { w in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-dp-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: folder) }
            let keyFile = folder.appendingPathComponent("host.key").path, caFile = folder.appendingPathComponent("ca.pem").path
            try Data(w.sealerKey).write(to: URL(fileURLWithPath: keyFile))
            try w.caPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
            let socket = folder.appendingPathComponent("broker.sock").path
            var configuration = BrokerServer<ProviderTokensOnly>.Configuration(socketPath: socket)
            configuration.providerTokens = w.minter
            let listening = AsyncStream<Void>.makeStream()
            let broker = BrokerServer(configuration: configuration, handler: ProviderTokensOnly(), logger: TestDatabase.quietLogger,
                                      onListening: { listening.continuation.yield() })
            let brokerGroup = ServiceGroup(services: [broker], logger: TestDatabase.quietLogger)
            let brokerRunning = Task { try await brokerGroup.run() }
            for await _ in listening.stream { break }
            defer { brokerRunning.cancel() }

            func worker() throws -> ChildProcess {
                try ChildProcess(AlfredBinary.path, [
                    "worker", "--queue", "delivery", "--lease-seconds", "2", "--rescue-seconds", "1", "--poll-seconds", "1",
                    "--no-metrics", "--broker-socket", socket, "--data-key-file", keyFile, "--apns-topic", DeliveryWorld.topic,
                    "--apns-url", w.apnsURL, "--apns-ca-file", caFile,
                ], environment: ["ALFRED_DATABASE_URL": w.workerURL.secretString.unsafeValue, "ALFRED_LOG_LEVEL": "info"])
            }

            let phone = try await w.device()
            // Apple accepts the push, then the answer takes 30 s: the worker is killed in between.
            w.apns.inject(.latency(.seconds(30), count: 1))
            let doomed = try worker()
            let key = try await w.notify(title: "Board sync in 10 min")
            #expect(try await eventually { w.deliveries(to: phone.token).count == 1 }, "\(doomed.output)")
            doomed.signal(SIGKILL)
            _ = await doomed.exitCode()
            #expect(try await w.state(key) == "pending", "the killed worker recorded nothing")

            let rescuer = try worker()
            #expect(try await w.waitForState(key, timeout: .seconds(20)) == "unconfirmed", "\(rescuer.output)")
            #expect(w.deliveries(to: phone.token).count == 1, "not sent twice")
            // The stand-in logs a request when it answers; the killed one never got its answer.
            #expect(w.requests(to: phone.token).isEmpty, "no second request reached APNs")
            #expect(try await w.jobPayload(key).isEmpty, "the text is gone")

            // The rescuer delivers what comes next, with the provider token from the broker.
            let next = try await w.notify(title: "Design review in 10 min")
            #expect(try await w.waitForState(next) == "delivered", "\(rescuer.output)")
            #expect(w.deliveries(to: phone.token).count == 2)
            #expect(w.mints() == [.initial], "both workers used the broker's one token")
            rescuer.signal(SIGTERM)
            #expect(await rescuer.waitForExit(timeout: .seconds(20)) == 0)
        }
    }
}

// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "alfred",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "alfred", targets: ["alfred"]),
        .executable(name: "alfred-broker", targets: ["alfred-broker"]),
        .executable(name: "alfred-key-service", targets: ["alfred-key-service"]),
        .executable(name: "alfred-attestor", targets: ["alfred-attestor"]),
        .executable(name: "alfred-dev", targets: ["alfred-dev"]),
        .executable(name: "alfred-bench", targets: ["alfred-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(name: "AlfredCore"),
        .target(name: "Store", dependencies: [
            "AlfredCore",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "JobQueue", dependencies: [
            "AlfredCore",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "Telemetry", dependencies: [
            "AlfredCore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // Local IPC shared by the broker, the attestor and their clients: length-prefixed frames and
        // the kernel's peer credentials.
        .target(name: "LocalIPC", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // Attestation documents (Nitro format): parsing, verifying, the local authority, the attestor's client.
        .target(name: "Attestation", dependencies: [
            "AlfredCore", "LocalIPC",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // The attestor's server: measures its caller from the kernel's view and signs evidence.
        .target(name: "Attestor", dependencies: [
            "Attestation", "LocalIPC", "CPeerIO",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // What the broker needs to talk to the key service; no key-encryption key is ever here.
        .target(name: "KeyServiceClient", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .target(name: "KeyService", dependencies: [
            "AlfredCore", "KeyServiceClient", "Attestation", "LocalIPC",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        .target(name: "StandIns", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdHTTP2", package: "hummingbird"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The worker's and the API's side of the broker: the client, its messages, the rewrap jobs.
        .target(name: "BrokerClient", dependencies: [
            "AlfredCore", "LocalIPC", "JobQueue",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // The broker itself: the only module that can get a refresh token decrypted.
        .target(name: "TokenBroker", dependencies: [
            "AlfredCore", "BrokerClient", "LocalIPC", "KeyServiceClient", "Attestation",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        .target(name: "GoogleAPI", dependencies: [
            "AlfredCore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        .target(name: "Urgency", dependencies: ["AlfredCore"]),
        // The provider token alone (ES256 JWT and its reuse rules): what the broker links to mint it,
        // so its measurement does not change with the HTTP/2 client's code.
        .target(name: "APNsProviderToken", dependencies: [
            "AlfredCore",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "APNs", dependencies: [
            "AlfredCore", "APNsProviderToken",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOTLS", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
            .product(name: "NIOHPACK", package: "swift-nio-http2"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        // The host data key: sealing, keyed hashes, the keyring and its re-seal job (workers and the API).
        .target(name: "Sealing", dependencies: [
            "AlfredCore", "JobQueue",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The delivery stage: `push.deliver` and the outbox producers hand notifications to.
        .target(name: "Delivery", dependencies: [
            "AlfredCore", "JobQueue", "Sealing", "APNs",
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        .target(name: "Assistant", dependencies: [
            "AlfredCore", "JobQueue", "GoogleAPI", "Urgency", "Sealing", "Delivery",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        .target(name: "Privacy", dependencies: [
            "AlfredCore", "JobQueue",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        // The app's HTTP API: server generated from Sources/API/openapi.yaml (the contract).
        .target(name: "API", dependencies: [
            "AlfredCore", "Assistant", "Sealing", "Privacy", "Store", "JobQueue",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Yams", package: "Yams"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.copy("openapi.yaml")],
        plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]),
        // The worker process as a library: `WorkerApp` builds it from a configuration, its parts and a
        // runtime; `alfred worker`, alfred-dev, the benchmarks and the tests all run it.
        .target(name: "WorkerProcess", dependencies: [
            "AlfredCore", "Store", "JobQueue", "BrokerClient", "Assistant", "Delivery", "Sealing", "Privacy", "GoogleAPI", "Urgency",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The pure test kit: a manual clock, seeded randomness, counting metrics, log capture, event
        // logs, gates and the repository's files. Unit test targets depend on this and nothing else of ours.
        .target(name: "AlfredTestKit", dependencies: [
            "AlfredCore",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
        ]),
        // The cluster kit: a private PostgreSQL, child processes, the tools tests install, services run as
        // a process runs them, and the `World` every integration and system test is built on.
        .target(name: "AlfredTestCluster", dependencies: [
            "AlfredTestKit", "AlfredCore", "Store", "Attestation", "StandIns", "WorkerProcess", "API", "APNs", "Assistant", "Delivery",
            "Sealing", "JobQueue", "GoogleAPI", "Urgency", "Privacy", "BrokerClient", "TokenBroker", "KeyService", "KeyServiceClient", "LocalIPC",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
        ]),
        // What every executable shares: database and log options, the metrics endpoint, the entry point.
        .target(name: "CommandSupport", dependencies: [
            "AlfredCore", "Store", "Telemetry",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        // Production executables, one per role. None links a test kit or StandIns (SystemTests checks the built files).
        .executableTarget(name: "alfred", dependencies: [
            "AlfredCore", "CommandSupport", "Store", "JobQueue", "Telemetry", "BrokerClient", "API", "Attestation", "WorkerProcess",
            "GoogleAPI", "Urgency", "Assistant", "Sealing", "Delivery", "APNs", "Privacy",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // prctl for the broker (no new privileges, not dumpable): a C function Swift cannot call.
        .target(name: "CProcessGuard"),
        // The attestor's socket calls Swift cannot make: SO_PEERCRED and SO_PASSCRED reads (struct ucred).
        .target(name: "CPeerIO"),
        .executableTarget(name: "alfred-broker", dependencies: [
            "AlfredCore", "CProcessGuard", "CommandSupport", "Store", "TokenBroker", "BrokerClient", "KeyServiceClient", "Attestation", "APNsProviderToken",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "alfred-key-service", dependencies: [
            "CommandSupport", "KeyService", "Attestation",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "alfred-attestor", dependencies: [
            "CommandSupport", "Attestor", "Attestation",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The development stack: `alfred-dev` (every process, a private Postgres, the stand-ins) and sandboxes.
        .executableTarget(name: "alfred-dev", dependencies: [
            "AlfredCore", "CommandSupport", "Store", "AlfredTestCluster", "StandIns", "BrokerClient", "Assistant", "Sealing", "Delivery",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "alfred-bench", dependencies: [
            "AlfredCore", "Store", "JobQueue", "AlfredTestCluster", "WorkerProcess", "BrokerClient", "GoogleAPI", "Urgency", "Assistant", "Sealing", "Delivery", "StandIns", "APNs", "Privacy",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            "Telemetry", .product(name: "Metrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Unit tier (`bash .ci/fast`): each module's tests with the pure kit only. Nothing here can reach
        // Postgres, a child process or a server (SystemTests' PackageLayoutTests checks), so the tier is
        // fast by construction: every test target not named *IntegrationTests or SystemTests.
        unitTests("AlfredCoreTests", ["AlfredCore"]),
        unitTests("AlfredTestKitTests", []),
        unitTests("UrgencyTests", ["Urgency", "AlfredCore", .product(name: "Crypto", package: "swift-crypto")], exclude: ["Fixtures", "Corpus"]),
        unitTests("APNsTests", ["APNs", "AlfredCore", .product(name: "Crypto", package: "swift-crypto"),
                                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP2", package: "swift-nio-http2")]),
        unitTests("JobQueueTests", ["JobQueue", "AlfredCore"]),
        unitTests("GoogleAPITests", ["GoogleAPI", "AlfredCore", .product(name: "AsyncHTTPClient", package: "async-http-client")]),
        unitTests("AttestationTests", ["Attestation", .product(name: "Crypto", package: "swift-crypto")]),
        unitTests("AttestorTests", ["Attestor", "Attestation"]),
        unitTests("KeyServiceTests", ["KeyService", "KeyServiceClient", "Attestation", "AlfredCore", .product(name: "Crypto", package: "swift-crypto")]),
        unitTests("SealingTests", ["Sealing", "AlfredCore"]),
        unitTests("AssistantTests", ["Assistant", "Delivery", "Sealing", "AlfredCore"]),
        unitTests("DeliveryTests", ["Delivery"]),
        unitTests("StoreTests", ["Store", "AlfredCore", .product(name: "Logging", package: "swift-log"), .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        unitTests("PrivacyTests", ["Privacy", "JobQueue", "AlfredCore", .product(name: "Logging", package: "swift-log")]),
        unitTests("TokenBrokerTests", ["TokenBroker", "BrokerClient", "KeyServiceClient", "Attestation", "LocalIPC", "AlfredCore"]),
        unitTests("StandInsTests", ["StandIns", .product(name: "Hummingbird", package: "hummingbird"),
                                    .product(name: "HTTPTypes", package: "swift-http-types"),
                                    .product(name: "HummingbirdTesting", package: "hummingbird"),
                                    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                                    .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        unitTests("OpsTests", []),
        unitTests("LocalIPCTests", ["LocalIPC", .product(name: "NIOCore", package: "swift-nio"),
                                    .product(name: "NIOEmbedded", package: "swift-nio")]),
        unitTests("WorkerProcessTests", ["WorkerProcess", "JobQueue"]),
        unitTests("APITests", ["API", .product(name: "CryptoExtras", package: "swift-crypto"), .product(name: "Crypto", package: "swift-crypto")]),
        // Integration tier: a module with Postgres, the stand-ins on real sockets and in-process services,
        // built on the cluster kit's `World`.
        integrationTests("StoreIntegrationTests", ["Store", "AlfredCore", "Privacy"]),
        integrationTests("JobQueueIntegrationTests", ["JobQueue", "Store", "AlfredCore", "WorkerProcess"]),
        integrationTests("GoogleAPIIntegrationTests", ["GoogleAPI", "StandIns", "AlfredCore"]),
        integrationTests("APNsIntegrationTests", ["APNs", "StandIns", "AlfredCore", .product(name: "Crypto", package: "swift-crypto"),
                                                  .product(name: "NIOPosix", package: "swift-nio")]),
        integrationTests("DeliveryIntegrationTests", ["Delivery", "Assistant", "Sealing", "APNs", "StandIns", "GoogleAPI", "AlfredCore"]),
        integrationTests("SealingIntegrationTests", ["Sealing", "Assistant", "Delivery", "JobQueue", "Store", "AlfredCore",
                                                     .product(name: "NIOFoundationCompat", package: "swift-nio")]),
        integrationTests("AssistantIntegrationTests", ["Assistant", "Delivery", "Sealing", "Urgency", "JobQueue", "Privacy", "StandIns", "Store",
                                                       "AlfredCore"]),
        integrationTests("APIIntegrationTests", ["API", "Assistant", "Delivery", "Sealing", "Privacy", "JobQueue", "StandIns", "Store", "Urgency",
                                                 "AlfredCore", "WorkerProcess", .product(name: "Yams", package: "Yams")]),
        integrationTests("TokenBrokerIntegrationTests", ["TokenBroker", "BrokerClient", "KeyService", "KeyServiceClient", "Attestation",
                                                         "LocalIPC", "JobQueue", "StandIns", "Store", "AlfredCore", "WorkerProcess",
                                                         .product(name: "NIOPosix", package: "swift-nio")]),
        integrationTests("KeyServiceIntegrationTests", ["KeyService", "KeyServiceClient", "Attestation", "AlfredCore"]),
        integrationTests("AttestorIntegrationTests", ["Attestor", "Attestation", "AlfredCore"]),
        integrationTests("StandInsIntegrationTests", ["StandIns", "API", .product(name: "AsyncHTTPClient", package: "async-http-client")]),
        // System tier: Alfred's own executables as processes (worker, API, broker, key service, attestor,
        // alfred-dev), Postgres restarts, Prometheus, the chaos run, the built files.
        integrationTests("SystemTests", [.product(name: "Yams", package: "Yams"), "AlfredCore", "Store", "APNs", "Attestation", "BrokerClient", "KeyServiceClient", "TokenBroker",
                                         "Privacy", "StandIns", "Assistant", "Delivery", "Sealing"]),
    ],
    swiftLanguageModes: [.v6]
)

/// A unit test target: the module under test and the pure kit. It cannot start Postgres, a process or
/// a server, so `bash .ci/fast` (every target but the integration and system ones) is fast by construction.
func unitTests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies + ["AlfredTestKit"], exclude: exclude)
}

/// An integration (or the system) test target: the cluster kit's Postgres, processes, stand-ins and `World`.
func integrationTests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies + ["AlfredTestCluster"])
}

import AlfredTestCluster
import Logging
import NIOPosix
import PostgresNIO
import Testing
@testable import Store

/// `require` never falls back: against a server without TLS (the test cluster has none) the
/// connection is refused before a password or a query is sent; `prefer` falls back, `disable`
/// never asks. A remote database is `require` unless its URL says otherwise (`DatabaseTLSDefaultTests`).
@Suite(.timeLimit(.minutes(5))) struct DatabaseTLSTests {
    static func connect(_ url: DatabaseURL) async throws {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: url.connectionConfiguration(), id: 1,
            logger: TestDatabase.quietLogger)
        _ = try await connection.query("SELECT 1", logger: TestDatabase.quietLogger).collect()
        try await connection.close()
    }

    @Test func requireIsRefusedByAServerWithoutTLSAndPreferFallsBack() async throws {
        var url = try await TestDatabase.fresh()
        #expect(url.tls == .disable, "the cluster is on this machine")
        try await Self.connect(url)
        url.tls = .prefer
        try await Self.connect(url)
        url.tls = .require
        let error = await #expect(throws: PSQLError.self) { try await Self.connect(url) }
        #expect(error?.code == .sslUnsupported, "\(String(reflecting: error))")
    }
}

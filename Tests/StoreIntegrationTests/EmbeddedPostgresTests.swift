import AlfredTestCluster
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The private cluster behind the tests, `alfred-dev` and the benchmarks starts even when its port
/// is taken between choosing it and binding it (CI saw `alfred-dev` fail so, once).
@Suite(.timeLimit(.minutes(5))) struct EmbeddedPostgresTests {
    @Test func portsAreChosenBelowTheKernelsEphemeralRange() throws {
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeralStart = try #require(range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        for _ in 0..<20 {
            let port = try EmbeddedPostgres.freePort()
            #expect(port >= 10_000 && port < ephemeralStart, "\(port) could be any client connection's local port")
        }
    }

    @Test func aClusterWhosePortWasTakenStartsOnAnother() async throws {
        let taken = try EmbeddedPostgres.freePort()
        let listener = try Self.listen(on: taken)
        defer { close(listener) }

        var options = EmbeddedPostgres.Options(durable: false)
        options.preferredPort = taken
        try await EmbeddedPostgres.with(options: options) { cluster in
            #expect(cluster.port != taken)
            let log = try String(contentsOf: cluster.directory.appendingPathComponent("server.log"), encoding: .utf8)
            #expect(log.contains("Address already in use"), "the taken port was tried first")
            let answer = try await TestDatabase.withClient(cluster.url, maxConnections: 1) { client in
                try await client.query("SELECT 1", logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            }
            #expect(answer == 1)
        }
    }

    private static func listen(on port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard fd >= 0, bound, Glibc.listen(fd, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        return fd
    }
}

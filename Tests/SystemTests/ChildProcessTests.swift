import AlfredTestCluster
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Children (the worker, broker and key service under `alfred-dev` and the tests, Postgres's tools)
/// inherit nothing but stdin, stdout and stderr. SwiftNIO opens sockets without close-on-exec, so an
/// inherited copy would keep a connection this process closed open at its peer while the child lives.
@Suite(.timeLimit(.minutes(2))) struct ChildProcessTests {
    @Test func aSocketThisProcessClosesIsClosedAtThePeerWhileAChildRuns() async throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)  // no close-on-exec, like NIO's
        let (ours, peer) = (pair[0], pair[1])
        defer { close(peer) }

        let child = try ChildProcess("/bin/sleep", ["600"])
        close(ours)

        // The peer sees end-of-file while the child still runs: no copy of `ours` lives on in it.
        // (Without the fix the peer would wait as long as the child lives; the suite's limit ends it.)
        var byte: UInt8 = 0
        var got = -1
        while got < 0 {
            got = recv(peer, &byte, 1, Int32(MSG_DONTWAIT))
            if got < 0 {
                try #require(errno == EAGAIN || errno == EWOULDBLOCK, "recv failed: \(errno)")
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(got == 0, "end of file")
        #expect(child.poll() == nil, "the child is still running")
        await child.terminate(with: SIGKILL)
    }
}

import AlfredTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Children (the worker, broker and key service under `alfred dev` and the tests, Postgres's tools)
/// inherit nothing but stdin, stdout and stderr. SwiftNIO opens sockets without close-on-exec, so an
/// inherited copy would keep a connection this process closed open at its peer while the child lives.
@Suite struct ChildProcessTests {
    @Test func aSocketThisProcessClosesIsClosedAtThePeerWhileAChildRuns() async throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)  // no close-on-exec, like NIO's
        let (ours, peer) = (pair[0], pair[1])
        defer { close(peer) }

        let child = try ChildProcess("/bin/sleep", ["30"])
        defer { child.signal(SIGKILL) }
        close(ours)

        // The peer sees end-of-file at once: no copy of `ours` lives on in the child.
        var pollSet = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
        try #require(poll(&pollSet, 1, 5_000) == 1, "the closed end is still open in the child")
        var byte: UInt8 = 0
        #expect(read(peer, &byte, 1) == 0)
        #expect(child.poll() == nil, "the child is still running")
    }
}

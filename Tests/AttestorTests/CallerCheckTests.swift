import Attestation
@testable import Attestor
import Foundation
import Testing

/// The attestor's checks of a caller between accept and answer (issue #32), on a made-up `/proc`
/// (files only), one change at a time: the real-process attacks are in AttestorAttackTests.
@Suite(.timeLimit(.minutes(5))) struct CallerCheckTests {
    /// A process 4242 as `/proc` shows it: stat (start time field 22 = 777), status, environ, exe.
    struct FakeProc {
        let root: URL
        var process: URL { root.appendingPathComponent("4242") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("fake-proc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("4242"), withIntermediateDirectories: true)
            try write("stat", "4242 (alfred-broker) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 1 0 0 20 0 4 0 777 1000 100")
            try write("status", "Name:\talfred-broker\nTracerPid:\t0\nUid:\t0\t0\t0\t0\n")
            try write("environ", "PATH=/usr/bin\u{0}HOME=/nonexistent\u{0}")
            try write("exe", "the broker's bytes")
            try FileManager.default.createDirectory(at: process.appendingPathComponent("ns"), withIntermediateDirectories: true)
            try setUserNamespace(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/user"))
        }

        /// Points `ns/user` at `target` (what `/proc` shows: `user:[inode]`).
        func setUserNamespace(_ target: String) throws {
            let link = process.appendingPathComponent("ns/user").path
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: process.appendingPathComponent(name))
        }
    }

    @Test func anUnchangedUntracedCallerPasses() throws {
        let proc = try FakeProc()
        let measurer = ProcessMeasurer(procRoot: proc.root.path)
        let pin = try measurer.pin(pid: 4242)
        try measurer.check(pid: 4242, against: pin)
    }

    @Test func aCallerRunningAnotherProgramSinceConnectingIsRefused() throws {
        let proc = try FakeProc()
        let measurer = ProcessMeasurer(procRoot: proc.root.path)
        let pin = try measurer.pin(pid: 4242)
        // exec: the same process now runs another file.
        try FileManager.default.removeItem(at: proc.process.appendingPathComponent("exe"))
        try proc.write("exe", "the genuine broker, exec'd after connect")
        let error = #expect(throws: AttestorError.self) { try measurer.check(pid: 4242, against: pin) }
        #expect(error?.code == .denied && error?.message.contains("exec after connect") == true)
    }

    @Test func aTracedOrPreloadedOrReplacedCallerIsRefused() throws {
        let traced = try FakeProc()
        var measurer = ProcessMeasurer(procRoot: traced.root.path)
        var pin = try measurer.pin(pid: 4242)
        try traced.write("status", "Name:\talfred-broker\nTracerPid:\t31337\n")
        #expect(throws: AttestorError.self) { try measurer.check(pid: 4242, against: pin) }

        let preloaded = try FakeProc()
        measurer = ProcessMeasurer(procRoot: preloaded.root.path)
        pin = try measurer.pin(pid: 4242)
        try preloaded.write("environ", "PATH=/usr/bin\u{0}LD_PRELOAD=/tmp/evil.so\u{0}")
        let error = #expect(throws: AttestorError.self) { try measurer.check(pid: 4242, against: pin) }
        #expect(error?.message.contains("LD_") == true)

        // Another process under the same pid (the first exited): its start time differs.
        let reused = try FakeProc()
        measurer = ProcessMeasurer(procRoot: reused.root.path)
        pin = try measurer.pin(pid: 4242)
        try reused.write("stat", "4242 (alfred-broker) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 1 0 0 20 0 4 0 999 1000 100")
        #expect(throws: AttestorError.self) { try measurer.check(pid: 4242, against: pin) }
    }

    /// A caller in a user namespace of its own could stamp another process's pid on what it writes
    /// (its namespace grants CAP_SYS_ADMIN over the pid namespaces it makes): refused.
    @Test func aCallerInAnotherUserNamespaceIsRefused() throws {
        let proc = try FakeProc()
        let measurer = ProcessMeasurer(procRoot: proc.root.path)
        let pin = try measurer.pin(pid: 4242)
        try proc.setUserNamespace("user:[1]")
        let error = #expect(throws: AttestorError.self) { try measurer.check(pid: 4242, against: pin) }
        #expect(error?.code == .denied && error?.message.contains("user namespace") == true)
    }
}

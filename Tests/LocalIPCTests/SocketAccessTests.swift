import Foundation
@testable import LocalIPC
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A server's socket file: its own user only (0600), or its callers' group (0660), set by the
/// server itself on the path (no root helper, issue #32).
@Suite(.timeLimit(.minutes(5))) struct SocketAccessTests {
    static func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("socket-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("s").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        return path
    }

    static func mode(_ path: String) -> (mode: mode_t, group: gid_t) {
        var info = stat()
        _ = stat(path, &info)
        return (info.st_mode & 0o777, info.st_gid)
    }

    @Test func ownerOnlyIs0600AndAGroupMakesIt0660AndThatGroups() throws {
        let path = try Self.scratch()
        try SocketAccess.ownerOnly.apply(to: path)
        #expect(Self.mode(path).mode == 0o600)
        let group = getegid()
        try SocketAccess(group: UInt32(group)).apply(to: path)
        #expect(Self.mode(path) == (0o660, group))
        try SocketAccess.anyLocalUser.apply(to: path)
        #expect(Self.mode(path).mode == 0o666)
    }

    @Test func aPathThatIsNotThereIsAClearError() {
        #expect(throws: SocketAccess.Failure.self) { try SocketAccess(group: 0).apply(to: "/nonexistent/alfred/broker.sock") }
        do { try SocketAccess.ownerOnly.apply(to: "/nonexistent/alfred/broker.sock") } catch {
            #expect(error.description.contains("/nonexistent/alfred/broker.sock"))
        }
    }
}

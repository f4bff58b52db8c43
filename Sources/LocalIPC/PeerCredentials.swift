import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The OS identity of the process at the other end of a Unix domain socket, as the kernel
/// recorded it when that process connected. The caller cannot forge it.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    public let uid: UInt32
    public let gid: UInt32
    /// 0 where the platform does not report it.
    public let pid: Int32

    public init(uid: UInt32, gid: UInt32, pid: Int32) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }

    public var description: String { "uid=\(uid) gid=\(gid) pid=\(pid)" }

    /// The user this process runs as: the default allow-list of a broker and its worker on one account.
    public static var currentUID: UInt32 { UInt32(getuid()) }
}

#if os(Linux) || os(Android)
/// Layout of Linux's `struct ucred` (pid_t, uid_t, gid_t). Glibc hides the C type behind
/// `_GNU_SOURCE`, so Swift does not import it; the layout is part of the kernel ABI.
private struct LinuxPeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
#endif

extension PeerCredentials {
    package struct Unavailable: Error {}

    /// Reads the peer of an accepted Unix-domain connection (SO_PEERCRED on Linux,
    /// LOCAL_PEERCRED on Darwin) through NIO's socket option access.
    package static func of(_ channel: any Channel) async throws -> PeerCredentials {
        guard let socket = channel as? any SocketOptionProvider else { throw Unavailable() }
        #if os(Linux) || os(Android)
        let raw: LinuxPeerCredentials = try await socket.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        ).get()
        return PeerCredentials(uid: raw.uid, gid: raw.gid, pid: raw.pid)
        #elseif canImport(Darwin)
        let raw: xucred = try await socket.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_LOCAL), name: SocketOptionName(LOCAL_PEERCRED)
        ).get()
        let pid: Int32 = try await socket.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_LOCAL), name: SocketOptionName(LOCAL_PEERPID)
        ).get()
        return PeerCredentials(uid: raw.cr_uid, gid: raw.cr_groups.0, pid: pid)
        #else
        throw Unavailable()
        #endif
    }
}

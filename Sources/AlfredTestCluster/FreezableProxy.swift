import Foundation
import Synchronization
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A TCP relay on loopback to a local port whose traffic can be stopped without closing anything, as
/// a network cut does: after `cut()`, bytes either side sends wait unanswered and neither side sees a
/// close. `close()` closes every connection (each side then sees its peer go).
public final class FreezableProxy: Sendable {
    public let port: Int
    private let listener: Int32
    private let frozen = Atomic<Bool>(false)
    private let sockets = Mutex<(open: [Int32], closed: Bool)>(([], false))

    public init(to targetPort: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw EmbeddedPostgresError("proxy: socket failed (errno \(errno))") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            Glibc.close(fd)
            throw EmbeddedPostgresError("proxy: bind/listen failed (errno \(errno))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        sockets.withLock { $0.open.append(fd) }
        let listener = self.listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { if errno == EINTR { continue } else { return } }
                let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                var target = Self.loopback(port: targetPort)
                let connected = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard connected == 0, track([client, upstream]) else {
                    Glibc.close(client); Glibc.close(upstream)
                    continue
                }
                Thread.detachNewThread { [self] in pump(from: client, to: upstream) }
                Thread.detachNewThread { [self] in pump(from: upstream, to: client) }
            }
        }
    }

    /// Stops the traffic of every connection, open or to come, without closing any.
    public func cut() { frozen.store(true, ordering: .sequentiallyConsistent) }

    /// Closes the listener and every connection.
    public func close() {
        let open = sockets.withLock { state -> [Int32] in
            state.closed = true
            defer { state.open = [] }
            return state.open
        }
        for socket in open { shutdown(socket, Int32(SHUT_RDWR)); Glibc.close(socket) }
    }

    deinit { close() }

    private func track(_ fds: [Int32]) -> Bool {
        sockets.withLock { state in
            guard !state.closed else { return false }
            state.open += fds
            return true
        }
    }

    /// Copies bytes until either side ends; while cut, it reads nothing more and holds what it read.
    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            while frozen.load(ordering: .sequentiallyConsistent) {
                if sockets.withLock({ $0.closed }) { return }
                usleep(20_000)
            }
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { shutdown(destination, Int32(SHUT_WR)); return }
            while frozen.load(ordering: .sequentiallyConsistent) {
                if sockets.withLock({ $0.closed }) { return }
                usleep(20_000)
            }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                sent += written
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

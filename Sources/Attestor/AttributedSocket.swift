import CPeerIO
import Dispatch
import Foundation
import LocalIPC
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The attestor's Unix socket, served with plain blocking calls on threads of its own instead of
/// NIO: the attestor must know which process wrote each byte it reads (SO_PASSCRED, `recvmsg`),
/// which NIO's stream channels do not report. Connections are few (the broker asks at start and at
/// key rotation) and capped, so a thread per connection is cheap.
final class AttributedListener: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let descriptor: Int32
    /// Written once to stop: every wait in this listener and its connections also watches it.
    private let stopPipe: (read: Int32, write: Int32)

    init(path: String, access: SocketAccess, backlog: Int32) throws(Failure) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "cannot open a Unix socket: \(Self.lastError)") }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // On the listening socket, so every accepted one has it from its first byte: set on the
        // accepted socket only, bytes written between accept and that call would come unattributed.
        guard bound == 0, alfred_attribute_writes(descriptor) == 0, listen(descriptor, backlog) == 0 else {
            let error = Self.lastError
            close(descriptor)
            throw Failure(description: "cannot listen on \(path): \(error)")
        }
        do {
            try access.apply(to: path)
        } catch {
            close(descriptor)
            unlink(path)
            throw Failure(description: error.description)
        }
        var pipeDescriptors: [Int32] = [0, 0]
        guard alfred_pipe_cloexec(&pipeDescriptors) == 0 else {
            close(descriptor)
            throw Failure(description: "cannot create the stop pipe: \(Self.lastError)")
        }
        self.descriptor = descriptor
        stopPipe = (pipeDescriptors[0], pipeDescriptors[1])
    }

    deinit {
        close(descriptor)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Ends accepting and wakes every connection that waits to read or write.
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    /// Accepts on a thread of its own until `stop()`, serving each connection on a thread of its own
    /// (`serve` closes nothing: the connection is closed when it returns); returns once the accept
    /// loop and every connection have ended.
    func acceptUntilStopped(_ serve: @escaping @Sendable (AttributedConnection) -> Void) async {
        let running = DispatchGroup()
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread { [self] in
                while let accepted = nextConnection() {
                    let connection = AttributedConnection(descriptor: accepted, stop: stopPipe.read)
                    running.enter()
                    Thread {
                        serve(connection)
                        connection.close()
                        running.leave()
                    }.start()
                }
                running.notify(queue: .global()) { finished.resume() }
            }.start()
        }
    }

    /// The next accepted descriptor, or nil once stopped.
    private func nextConnection() -> Int32? {
        while true {
            var watched = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
            guard poll(&watched, 2, -1) >= 0 || errno == EINTR else { return nil }
            if watched[1].revents != 0 { return nil }
            guard watched[0].revents != 0 else { continue }
            let accepted = alfred_accept_cloexec(descriptor)
            if accepted >= 0 { return accepted }
            // The caller gave up in the backlog, or descriptors ran out for a moment: keep serving.
            if errno == EMFILE || errno == ENFILE { usleep(10_000) }
        }
    }

    static var lastError: String { String(cString: strerror(errno)) }
}

/// One accepted connection. Reads report the processes that wrote the bytes read.
final class AttributedConnection: Sendable {
    private let descriptor: Int32
    private let stop: Int32
    private let closed = Mutex(false)

    fileprivate init(descriptor: Int32, stop: Int32) {
        self.descriptor = descriptor
        self.stop = stop
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Who connected, as the kernel recorded it at `connect` (SO_PEERCRED).
    var peer: PeerCredentials? {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        guard alfred_peer_credentials(descriptor, &pid, &uid, &gid) == 0 else { return nil }
        return PeerCredentials(uid: uid, gid: gid, pid: pid)
    }

    enum Read: Equatable {
        /// A whole frame's payload and every process that wrote any byte of it (prefix included).
        case frame([UInt8], writers: Set<Int32>)
        case tooLarge
        /// The peer closed (in the middle of a frame or before one), or the read failed.
        case closed
        case timedOut
        case stopped
    }

    /// One length-prefixed frame (4-byte big-endian length, then the payload), read by `deadline`.
    func readFrame(maxSize: Int, until deadline: ContinuousClock.Instant) -> Read {
        var writers = Set<Int32>()
        var prefix = [UInt8]()
        if case let failure? = read(count: FramePrefix.length, into: &prefix, writers: &writers, until: deadline) { return failure }
        let length = FramePrefix.length(of: prefix)
        guard length <= maxSize else { return .tooLarge }
        var payload = [UInt8]()
        if case let failure? = read(count: length, into: &payload, writers: &writers, until: deadline) { return failure }
        return .frame(payload, writers: writers)
    }

    private func read(count: Int, into bytes: inout [UInt8], writers: inout Set<Int32>, until deadline: ContinuousClock.Instant) -> Read? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < count {
            if let failure = wait(for: Int16(POLLIN), until: deadline) { return failure }
            var writer: Int32 = 0
            let got = chunk.withUnsafeMutableBytes { alfred_read_attributed(descriptor, $0.baseAddress, min($0.count, count - bytes.count), &writer) }
            if got < 0, errno == EAGAIN || errno == EINTR { continue }
            guard got > 0 else { return .closed }
            writers.insert(writer)
            bytes += chunk[..<got]
        }
        return nil
    }

    /// Writes `bytes` whole by `deadline`; false if the peer did not take them in time or is gone.
    @discardableResult
    func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) -> Bool {
        var sent = 0
        while sent < bytes.count {
            if wait(for: Int16(POLLOUT), until: deadline) != nil { return false }
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Nil once the descriptor is ready for `events` (or has hung up: the next call says how).
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Read? {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            var watched = [pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&watched, 2, milliseconds)
            if ready < 0, errno != EINTR { return .closed }
            if watched[1].revents != 0 { return .stopped }
            if watched[0].revents != 0 { return nil }
        }
    }

    /// Ends the conversation after the last answer: says end-of-stream, then reads and drops what the
    /// peer still sends until it closes or `limit` passes, then closes. Closing with unread bytes (a
    /// refused caller's request, which is never read) would reset the connection, and the peer could
    /// lose the answer already written to it.
    func finish(within limit: Duration = .milliseconds(500)) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
        let deadline = ContinuousClock.now.advanced(by: limit)
        var scratch = [UInt8](repeating: 0, count: 4096)
        while wait(for: Int16(POLLIN), until: deadline) == nil {
            let got = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got < 0, errno == EAGAIN || errno == EINTR { continue }
            if got <= 0 { break }
        }
        close()
    }

    /// Closes once; later calls do nothing.
    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { closeDescriptor(descriptor) }
    }
}

private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// The 4-byte big-endian length before each frame (the same framing as the broker's, see LocalIPC).
enum FramePrefix {
    static let length = 4

    static func length(of prefix: [UInt8]) -> Int {
        prefix.reduce(0) { $0 << 8 | Int($1) }
    }

    /// `message` as one frame, or nil when its JSON exceeds `maxSize`.
    static func frame(_ message: some Encodable, maxSize: Int) throws -> [UInt8]? {
        let payload = try JSONEncoder().encode(message)
        guard payload.count <= maxSize else { return nil }
        let count = UInt32(payload.count)
        return [UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)] + Array(payload)
    }
}

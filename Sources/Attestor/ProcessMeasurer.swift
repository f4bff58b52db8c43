import Attestation
import Crypto
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Measures a running process from the kernel's view: the file `/proc/<pid>/exe` names is the
/// executable the process actually runs (even if the path was replaced or deleted since), so what a
/// process says about itself never enters the measurement.
///
/// A pid can be reused once its process exits. The measurer reads the process's start time and
/// owner before and after hashing and refuses when they changed, so the measurement belongs to the
/// process that is still at the other end of the caller's socket.
///
/// Hashes are cached by the executable's device, inode, size and times: Linux refuses writes to a
/// file that is being executed (ETXTBSY), so while any process runs it, that identity stands for
/// the same bytes.
public final class ProcessMeasurer: Sendable {
    struct FileIdentity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let changed: Int64
    }

    private let procRoot: String
    private let cache = Mutex<[FileIdentity: [UInt8]]>([:])

    public init(procRoot: String = "/proc") { self.procRoot = procRoot }

    /// PCR0 for the process `pid`, which must be running as `uid`.
    public func measure(pid: Int32, uid: UInt32) throws(AttestorError) -> [UInt8] {
        guard pid > 0 else { throw AttestorError(.unmeasurable, "the caller's process id is unknown") }
        let before = try identity(of: pid)
        guard before.uid == uid else {
            throw AttestorError(.unmeasurable, "process \(pid) runs as uid \(before.uid), the socket's peer is uid \(uid)")
        }
        let executable = "\(procRoot)/\(pid)/exe"
        let file = try fileIdentity(executable)
        let measurement: [UInt8]
        if let cached = cache.withLock({ $0[file] }) {
            measurement = cached
        } else {
            measurement = try hash(executable)
            cache.withLock { cache in
                if cache.count > 64 { cache.removeAll() }  // a handful of broker builds at most
                cache[file] = measurement
            }
        }
        guard try identity(of: pid) == before, try fileIdentity(executable) == file else {
            throw AttestorError(.unmeasurable, "process \(pid) changed while it was being measured")
        }
        return measurement
    }

    /// What a caller was when it connected: its process and the executable it ran then. Taken at
    /// accept, before the request is read, and compared when it is answered, so a process that
    /// connected and then `exec`ed another program (the broker, say, frozen before it ran) is not
    /// measured as that program.
    public struct Pin: Equatable, Sendable {
        let process: ProcessIdentity
        let executable: FileIdentity
    }

    public func pin(pid: Int32) throws(AttestorError) -> Pin {
        guard pid > 0 else { throw AttestorError(.unmeasurable, "the caller's process id is unknown") }
        return Pin(process: try identity(of: pid), executable: try fileIdentity("\(procRoot)/\(pid)/exe"))
    }

    /// Refuses a caller that is not what it was at connect, is being traced (another process can
    /// drive it or read its memory), runs with the dynamic loader told to inject code (`LD_*`), or
    /// lives in another user namespace (where it may claim another process's pid on what it writes:
    /// a user namespace's owner holds CAP_SYS_ADMIN over the pid namespaces it creates).
    public func check(pid: Int32, against pin: Pin) throws(AttestorError) {
        guard try identity(of: pid) == pin.process else {
            throw AttestorError(.denied, "process \(pid) is not the process that connected")
        }
        guard try fileIdentity("\(procRoot)/\(pid)/exe") == pin.executable else {
            throw AttestorError(.denied, "process \(pid) runs another program than when it connected (exec after connect)")
        }
        guard let status = try? String(contentsOfFile: "\(procRoot)/\(pid)/status", encoding: .utf8) else {
            throw AttestorError(.unmeasurable, "cannot read the status of process \(pid)")
        }
        let tracer = status.split(separator: "\n").first { $0.hasPrefix("TracerPid:") }?.split(separator: "\t").last
        guard tracer.map({ $0.trimmingCharacters(in: .whitespaces) == "0" }) == true else {
            throw AttestorError(.denied, "process \(pid) is being traced")
        }
        guard let environment = FileManager.default.contents(atPath: "\(procRoot)/\(pid)/environ") else {
            throw AttestorError(.unmeasurable, "cannot read the environment of process \(pid)")
        }
        if environment.split(separator: 0).contains(where: { $0.starts(with: Array("LD_".utf8)) }) {
            throw AttestorError(.denied, "process \(pid) runs with LD_* set for the dynamic loader")
        }
        guard let namespace = Self.link("\(procRoot)/\(pid)/ns/user") else {
            throw AttestorError(.unmeasurable, "cannot read the user namespace of process \(pid)")
        }
        guard namespace == Self.ownUserNamespace else {
            throw AttestorError(.denied, "process \(pid) runs in another user namespace (\(namespace))")
        }
    }

    /// The attestor's own user namespace, as `/proc` names it (`user:[inode]`).
    static let ownUserNamespace = link("/proc/self/ns/user")

    private static func link(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: 256)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    struct ProcessIdentity: Equatable, Sendable {
        let startTime: String
        let uid: UInt32
    }

    /// The start time (field 22 of `stat`, in clock ticks since boot) and owner of `pid`.
    private func identity(of pid: Int32) throws(AttestorError) -> ProcessIdentity {
        let path = "\(procRoot)/\(pid)/stat"
        guard let line = try? String(contentsOfFile: path, encoding: .utf8),
              let close = line.lastIndex(of: ")")
        else { throw AttestorError(.unmeasurable, "process \(pid) is gone") }
        // After the command name (which may hold spaces and parentheses): state is field 3.
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { throw AttestorError(.unmeasurable, "cannot read the start time of process \(pid)") }
        var info = stat()
        guard stat("\(procRoot)/\(pid)", &info) == 0 else { throw AttestorError(.unmeasurable, "process \(pid) is gone") }
        return ProcessIdentity(startTime: String(fields[19]), uid: info.st_uid)
    }

    private func fileIdentity(_ path: String) throws(AttestorError) -> FileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw AttestorError(.unmeasurable, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    private func hash(_ path: String) throws(AttestorError) -> [UInt8] {
        do {
            return try LocalAttestation.measure(URL(fileURLWithPath: path))
        } catch {
            throw AttestorError(.unmeasurable, "cannot read \(path) to measure it")
        }
    }
}

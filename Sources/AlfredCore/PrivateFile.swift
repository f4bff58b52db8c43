import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only their owner may read. They are created with mode 0600 by `open(2)` itself, so there is
/// no moment in which a secret sits in a file with the umask's wider mode (as there would be with a
/// write followed by a chmod).
public enum PrivateFile {
    /// A secret handed over as a file (a docker-compose secret, a systemd credential): one non-empty
    /// line, its trailing newline dropped. The error names the file, never its contents.
    public static func secretLine(_ url: URL) throws(PrivateFileError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PrivateFileError("cannot read the secret file \(url.path) (missing, or not readable by this user)")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty, !text.contains("\n") else {
            throw PrivateFileError("the secret file \(url.path) must hold one non-empty line")
        }
        return text
    }

    /// Creates `url`, failing if it exists.
    public static func create(_ url: URL, contents: Data) throws(PrivateFileError) {
        try store(contents, to: url.path, flags: O_CREAT | O_EXCL)
    }

    /// Replaces `url` atomically (temporary file, fsync, rename), so a reader sees the old or the
    /// new contents and never half a file.
    public static func replace(_ url: URL, contents: Data) throws(PrivateFileError) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try store(contents, to: temporary.path, flags: O_CREAT | O_EXCL)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw PrivateFileError("cannot replace \(url.path): \(String(cString: strerror(code)))")
        }
    }

    /// Creates a directory with mode 0700 (the mode is set explicitly, whatever the umask).
    public static func createDirectory(_ url: URL) throws(PrivateFileError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw PrivateFileError("cannot create directory \(url.path)")
        }
        guard chmod(url.path, 0o700) == 0 else {
            throw PrivateFileError("cannot make \(url.path) private: \(String(cString: strerror(errno)))")
        }
    }

    private static func store(_ contents: Data, to path: String, flags: Int32) throws(PrivateFileError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | flags, 0o600)
        guard descriptor >= 0 else {
            throw PrivateFileError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let failure: Int32? = contents.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        if let failure {
            unlink(path)
            throw PrivateFileError("cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }
}

/// A private file or directory could not be made; the message names the path and the reason.
public struct PrivateFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection of a framed local server: length-prefixed frames in, bytes out.
package typealias FramedConnection = NIOAsyncChannel<InboundFrame, ByteBuffer>

/// Binds a Unix-domain socket whose connections decode length-prefixed frames, then sets the socket
/// file's mode. The broker and the attestor both serve this way; who may use a connection is decided
/// per connection from the kernel's peer credentials, never by the mode alone.
package enum FramedListener {
    package struct ModeError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The listening channel. The socket exists with the umask's mode between bind and chmod; a
    /// private parent directory and the peer-credential checks guard that window.
    package static func bind(
        _ path: String, access: SocketAccess, maxFrameSize: Int, backlog: Int32, allowHalfClosure: Bool = false,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> NIOAsyncChannel<FramedConnection, Never> {
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: backlog)
            .childChannelOption(.allowRemoteHalfClosure, value: allowHalfClosure)
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(maxFrameSize: maxFrameSize)))
                    return try FramedConnection(wrappingChannelSynchronously: channel)
                }
            }
        do {
            try access.apply(to: path)
        } catch {
            try? await listener.channel.close()
            throw ModeError(description: error.description)
        }
        return listener
    }
}

/// Who may open a server's Unix socket: its own user (0600), or also one group (0660) whose members
/// are its callers (the broker's socket: the workers' and the API's accounts; the key service's and
/// the attestor's: the broker's). Set by the server itself right after bind, on the path in a
/// directory its own user owns, so no root helper and no symlink in someone else's directory is
/// involved; the peer-credential checks still decide per connection.
package struct SocketAccess: Sendable, Equatable {
    package let group: UInt32?
    package let mode: mode_t

    package init(group: UInt32?) { self.group = group; mode = group == nil ? 0o600 : 0o660 }

    private init(group: UInt32?, mode: mode_t) { self.group = group; self.mode = mode }

    package static let ownerOnly = SocketAccess(group: nil)
    /// Any local user may connect (0666): only for a server whose per-connection uid check is the
    /// whole gate (the attestor without a callers' group, as before).
    package static let anyLocalUser = SocketAccess(group: nil, mode: 0o666)

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package func apply(to path: String) throws(Failure) {
        if let group, chown(path, uid_t.max, gid_t(group)) != 0 {
            throw Failure(description: "cannot give \(path) to group \(group) (is this process's user a member?): \(String(cString: strerror(errno)))")
        }
        guard chmod(path, mode) == 0 else {
            throw Failure(description: "cannot set \(path) to mode \(String(mode, radix: 8)): \(String(cString: strerror(errno)))")
        }
    }
}

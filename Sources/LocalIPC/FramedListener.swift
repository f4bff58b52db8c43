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
        _ path: String, mode: mode_t, maxFrameSize: Int, backlog: Int32, allowHalfClosure: Bool = false,
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
        guard chmod(path, mode) == 0 else {
            let reason = String(cString: strerror(errno))
            try? await listener.channel.close()
            throw ModeError(description: "cannot set \(path) to mode \(String(mode, radix: 8)): \(reason)")
        }
        return listener
    }
}

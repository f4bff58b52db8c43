import Logging
import ServiceLifecycle

/// Runs `services` in a ServiceGroup (as a process does) while `body` runs, then shuts them down
/// gracefully and waits for them, whether `body` returned or threw; `body`'s error wins.
///
/// Shut down whatever talks to the services (HTTP clients, connections) inside `body`, before it
/// returns: a server that stops while a client still sends on a kept-alive HTTP/2 connection can
/// trap in NIO (a stream's `NIOAsyncChannel` created after the server stopped consuming streams is
/// released without being finished).
public func withRunningServices<T: Sendable>(
    _ services: [any Service], logger: Logger, _ body: () async throws -> T
) async throws -> T {
    let group = ServiceGroup(services: services, logger: logger)
    // Its own task, so that `body` runs in this one and its result can wait for a real graceful shutdown.
    let running = Task { try await group.run() }
    let outcome: Result<T, any Error>
    do {
        outcome = .success(try await body())
    } catch {
        outcome = .failure(error)
    }
    await group.triggerGracefulShutdown()
    let stopped = await running.result
    let value = try outcome.get()
    try stopped.get()
    return value
}

import Logging
import ServiceLifecycle

/// Runs `services` in a ServiceGroup (as a process does) while `body` runs, then shuts them down
/// gracefully and waits for them (cancelling them past `grace`), whether `body` returned or threw;
/// `body`'s error wins.
///
/// Shut down whatever talks to the services (HTTP clients, connections) inside `body`, before it
/// returns: a server that stops while a client still sends on a kept-alive HTTP/2 connection can
/// trap in NIO (a stream's `NIOAsyncChannel` created after the server stopped consuming streams is
/// released without being finished).
public func withRunningServices<T: Sendable>(
    _ services: [any Service], logger: Logger, stopWithin grace: Duration = .seconds(60), _ body: () async throws -> T
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
    // A server still answering a request a test held (a fault's long delay), or a pool waiting for a
    // statement that will never answer, would keep a graceful shutdown waiting forever: past the
    // grace, the services are cancelled. A backstop for teardown, not something a test waits for.
    let stopped = await withTaskGroup(of: Result<Void, any Error>?.self) { waits in
        waits.addTask { await running.result }
        waits.addTask {
            try? await Task.sleep(for: grace)
            return nil
        }
        defer { waits.cancelAll() }
        if let first = await waits.next(), let result = first { return result }
        logger.warning("services did not stop within their grace; cancelling them")
        running.cancel()
        // Ended by the cancellation: whatever it reports now is the cancellation, not a failure.
        _ = await running.result
        return .success(())
    }
    let value = try outcome.get()
    try stopped.get()
    return value
}

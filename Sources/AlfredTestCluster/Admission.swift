import Foundation
import Synchronization

/// An async semaphore: at most `width` bodies run at once, the rest wait in order (suspended, using no
/// thread). A waiter whose task is cancelled stops waiting and throws.
public final class Admission: Sendable {
    private struct State {
        var available: Int
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID = 0
    }

    private let state: Mutex<State>
    public let width: Int

    public init(width: Int) {
        precondition(width > 0)
        self.width = width
        state = Mutex(State(available: width))
    }

    /// The heavy fixtures of this test process (a `World`: its database, stand-ins, key service,
    /// broker and worker). Swift Testing starts every test at once; on a small machine hundreds of
    /// worlds starting together starve one another and the unit tests beside them (tasks wait minutes
    /// for a thread), so a few run at a time and the rest wait their turn without using the machine.
    public static let worlds = Admission(width: max(6, 3 * ProcessInfo.processInfo.activeProcessorCount))

    /// Creating a test database (a copy of the template, then every migration) is the costliest step
    /// of most integration tests and serialises in Postgres anyway.
    public static let databases = Admission(width: max(3, ProcessInfo.processInfo.activeProcessorCount + 1))

    public func run<T>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.available > 0 {
                        state.available -= 1
                        return .success(())
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}

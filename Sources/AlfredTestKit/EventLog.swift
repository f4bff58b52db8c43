import Synchronization

/// Records events as they happen and lets a test wait for them: `first(where:)` returns the first
/// matching event, recorded before or after the call, without polling and without a timeout of its
/// own (the suite's time limit is the hang detector; a cancelled wait throws). Used for the worker's
/// events (`Runtime.events`), so tests wait for "this job completed" instead of reading logs or rows.
public final class EventLog<Event: Sendable>: Sendable {
    private struct Waiter {
        let isMet: @Sendable ([Event]) -> Bool
        let continuation: CheckedContinuation<[Event], any Error>
    }

    private struct State {
        var events: [Event] = []
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Everything recorded so far, oldest first.
    public var all: [Event] { state.withLock { $0.events } }

    public func record(_ event: Event) {
        let ready = state.withLock { state -> [(CheckedContinuation<[Event], any Error>, [Event])] in
            state.events.append(event)
            let events = state.events
            let met = state.waiters.filter { $0.value.isMet(events) }
            for id in met.keys { state.waiters[id] = nil }
            return met.values.map { ($0.continuation, events) }
        }
        for (continuation, events) in ready { continuation.resume(returning: events) }
    }

    /// Waits until `condition` holds of the events recorded so far; returns them.
    @discardableResult
    public func waitUntil(_ condition: @escaping @Sendable ([Event]) -> Bool) async throws -> [Event] {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Event], any Error>) in
                let outcome = state.withLock { state -> Result<[Event], any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if condition(state.events) { return .success(state.events) }
                    state.waiters[id] = Waiter(isMet: condition, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return waiter
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The first event that matches, waiting for it if none has been recorded yet.
    @discardableResult
    public func first(where matches: @escaping @Sendable (Event) -> Bool) async throws -> Event {
        try await waitUntil { $0.contains(where: matches) }.first(where: matches)!
    }

    /// The first `count` events that match, waiting until there are that many.
    @discardableResult
    public func wait(for count: Int, where matches: @escaping @Sendable (Event) -> Bool) async throws -> [Event] {
        Array(try await waitUntil { $0.lazy.filter(matches).count >= count }.filter(matches).prefix(count))
    }
}

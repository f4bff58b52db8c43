import Synchronization

/// Turns many concurrent calls into few statements: whatever is submitted while one batch is being
/// written goes into the next. No timer and no background task: the first caller finds nobody
/// writing and writes (leads); callers that arrive meanwhile wait, and when a batch is done the
/// oldest waiter leads the next one. Under light load every call is its own batch.
public final class Batcher<Input: Sendable, Output: Sendable>: Sendable {
    /// Writes a batch; returns one output per input, in order.
    public typealias Flush = @Sendable ([Input]) async throws -> [Output]

    private enum Wake: Sendable {
        case done(Output)
        case lead
    }
    private struct State {
        var pending: [(Input, CheckedContinuation<Wake, any Error>)] = []
        var writing = false
    }
    private let state = Mutex(State())
    private let maxBatch: Int
    private let flush: Flush

    public init(maxBatch: Int, flush: @escaping Flush) {
        precondition(maxBatch >= 1)
        self.maxBatch = maxBatch
        self.flush = flush
    }

    public func submit(_ input: Input) async throws -> Output {
        let leads = state.withLock { s in
            if s.writing { return false }
            s.writing = true
            return true
        }
        if leads { return try await lead(input) }
        let wake = try await withCheckedThrowingContinuation { continuation in
            let queued = state.withLock { s in
                // The writer may have finished between the check above and now: then lead.
                guard s.writing else { s.writing = true; return false }
                s.pending.append((input, continuation))
                return true
            }
            if !queued { continuation.resume(returning: .lead) }
        }
        switch wake {
        case .done(let output): return output
        case .lead: return try await lead(input)
        }
    }

    /// Writes `own` with up to `maxBatch - 1` waiting inputs, answers them, and hands the writer's
    /// role to the oldest input still waiting (or gives it up).
    private func lead(_ own: Input) async throws -> Output {
        let others = state.withLock { s in
            let take = min(s.pending.count, maxBatch - 1)
            defer { s.pending.removeFirst(take) }
            return Array(s.pending.prefix(take))
        }
        let result: Result<[Output], any Error>
        do {
            let outputs = try await flush([own] + others.map(\.0))
            precondition(outputs.count == others.count + 1, "a flush returns one output per input")
            result = .success(outputs)
        } catch {
            result = .failure(error)
        }
        for (index, (_, continuation)) in others.enumerated() {
            switch result {
            case .success(let outputs): continuation.resume(returning: .done(outputs[index + 1]))
            case .failure(let error): continuation.resume(throwing: error)
            }
        }
        let next = state.withLock { s in
            if s.pending.isEmpty {
                s.writing = false
                return nil as CheckedContinuation<Wake, any Error>?
            }
            return s.pending.removeFirst().1 as CheckedContinuation<Wake, any Error>?
        }
        // The next writer's input went back with its continuation's wake-up: it leads with it.
        next?.resume(returning: .lead)
        return try result.get()[0]
    }
}

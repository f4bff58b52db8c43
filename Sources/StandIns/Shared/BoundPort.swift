import Synchronization
import Hummingbird
import Logging

/// Tells waiters which port the server bound, once it has (port 0 means the OS chooses), or why it
/// never will. Waiting on this signal replaces sleeping in tests.
final class BoundPort: Sendable {
    private typealias Waiter = CheckedContinuation<Int, any Error>

    private enum State {
        /// `cancelled` holds waiters whose task was cancelled before they parked.
        case waiting([Int: Waiter], cancelled: Set<Int>, nextID: Int)
        case bound(Int)
        case failed(StandInError)
    }

    private enum Ticket {
        case resolved(Result<Int, StandInError>)
        case parked(Int)
    }

    private let state = Mutex<State>(.waiting([:], cancelled: [], nextID: 0))

    func bind(_ port: Int) { resolve(.success(port)) }

    /// Also used on stop: later waiters learn the server is gone instead of reading a dead port.
    func fail(_ error: StandInError) { resolve(.failure(error)) }

    /// Back to "not bound yet" for a later `run()`.
    func rearm() {
        state.withLock { state in
            if case .waiting = state { return }
            state = .waiting([:], cancelled: [], nextID: 0)
        }
    }

    var current: Int? {
        state.withLock { if case .bound(let port) = $0 { port } else { nil } }
    }

    func wait() async throws -> Int {
        let ticket = state.withLock { state -> Ticket in
            switch state {
            case .bound(let port): return .resolved(.success(port))
            case .failed(let error): return .resolved(.failure(error))
            case .waiting(let waiters, let cancelled, let next):
                state = .waiting(waiters, cancelled: cancelled, nextID: next + 1)
                return .parked(next)
            }
        }
        switch ticket {
        case .resolved(let result): return try result.get()
        case .parked(let id): return try await park(id)
        }
    }

    private func park(_ id: Int) async throws -> Int {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let resumeNow: Result<Int, any Error>? = state.withLock { state in
                    switch state {
                    case .bound(let port): return .success(port)
                    case .failed(let error): return .failure(error)
                    case .waiting(var waiters, var cancelled, let next):
                        // The cancellation handler ran before we parked: do not park forever.
                        if cancelled.remove(id) != nil {
                            state = .waiting(waiters, cancelled: cancelled, nextID: next)
                            return .failure(CancellationError())
                        }
                        waiters[id] = continuation
                        state = .waiting(waiters, cancelled: cancelled, nextID: next)
                        return nil
                    }
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let parked: Waiter? = state.withLock { state in
                guard case .waiting(var waiters, var cancelled, let next) = state else { return nil }
                let parked = waiters.removeValue(forKey: id)
                if parked == nil { cancelled.insert(id) }
                state = .waiting(waiters, cancelled: cancelled, nextID: next)
                return parked
            }
            parked?.resume(throwing: CancellationError())
        }
    }

    private func resolve(_ result: Result<Int, StandInError>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard case .waiting(let waiters, _, _) = state else {
                // A stop after a bind replaces the port with the failure; a second bind is ignored.
                if case .failure(let error) = result { state = .failed(error) }
                return []
            }
            switch result {
            case .success(let port): state = .bound(port)
            case .failure(let error): state = .failed(error)
            }
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
    }
}

extension BoundPort {
    /// Serves `router` over HTTP/1.1 on `host:port` until shutdown, reporting the bound port here
    /// (and, once it stops or fails, why it is gone). `name` ("Google stand-in") goes in the errors.
    func serve(_ router: Router<BasicRequestContext>, host: String, port: Int, name: String, logger: Logger) async throws {
        let address = "\(host):\(port)"
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { [self] channel in
                if let port = channel.localAddress?.port {
                    bind(port)
                } else {
                    fail(StandInError(.notRunning, "\(name) bound \(address) but reports no port"))
                }
            },
            logger: logger)
        do {
            try await application.run()
        } catch {
            fail(StandInError(.notRunning, "\(name) on \(address) failed: \(error); is the port free?"))
            throw error
        }
        fail(StandInError(.notRunning, "\(name) on \(address) has stopped; run() it again"))
    }
}

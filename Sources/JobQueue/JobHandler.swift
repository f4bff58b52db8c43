import AlfredCore
import Foundation
import Logging

/// What a handler knows about the attempt it is running.
public struct JobContext: Sendable {
    public let id: JobID
    public let kind: String
    /// 1 for the first attempt.
    public let attempt: Int
    public let maxAttempts: Int
    public let deadline: Date?
    public let userID: UUID?
    /// How late the attempt started: claim time minus `due_at`, by the database clock. A retry's
    /// `due_at` is its retry time, so this restarts with every attempt.
    public let lateness: Duration
    /// How late the work is: claim time minus the time the job was meant for, which retries, snoozes
    /// and rescues do not move. What a reminder's or a brief's lateness is measured from.
    public let sinceScheduled: Duration
    public let logger: Logger
    let leaseLost: @Sendable () -> Bool
    /// Returns at the job's due instant, on the worker's clock (at once for a job claimed when due).
    let untilDue: @Sendable () async throws -> Void

    init(id: JobID, kind: String, attempt: Int, maxAttempts: Int, deadline: Date?, userID: UUID?, lateness: Duration,
         sinceScheduled: Duration? = nil, logger: Logger, leaseLost: @escaping @Sendable () -> Bool,
         untilDue: @escaping @Sendable () async throws -> Void = {}) {
        self.id = id; self.kind = kind; self.attempt = attempt; self.maxAttempts = maxAttempts; self.deadline = deadline
        self.userID = userID; self.lateness = lateness; self.sinceScheduled = sinceScheduled ?? lateness; self.logger = logger
        self.leaseLost = leaseLost; self.untilDue = untilDue
    }

    /// A context for running a handler outside a worker (tools, tests): one attempt, no lease to lose.
    public static func standalone(kind: JobKind, userID: UUID?, logger: Logger) -> JobContext {
        JobContext(id: JobID(), kind: kind.name, attempt: 1, maxAttempts: kind.maxAttempts, deadline: nil, userID: userID,
                   lateness: .zero, logger: logger, leaseLost: { false })
    }

    /// For handlers that prepare ahead (`JobHandler.preparesAhead`): waits until the job is due.
    /// Everything before this call may run up to the worker's `claimAhead` early; what must not
    /// happen early comes after it. Throws `CancellationError` if the worker is shutting down or
    /// its presence in the database ended (another worker may be about to run the job).
    public func waitUntilDue() async throws {
        try await untilDue()
        try Task.checkCancellation()
    }

    /// True once a heartbeat found that this worker no longer holds the job (it was rescued or
    /// cancelled): the handler should stop and must not write anything more for it.
    public var isLeaseLost: Bool { leaseLost() }
}

/// A handler's successful result.
public enum JobOutcome: Sendable, Equatable {
    case done
    /// Recurring work: the same row goes back to `queued` at this time, in the completing statement.
    case runAgain(JobSchedule)
}

/// An error that tells the queue what to do, so workers act on a class, never on message text.
/// `description` is recorded as the job's last error: keep it free of personal data.
public struct JobError: Error, CustomStringConvertible, Sendable {
    public enum Action: Sendable, Equatable {
        /// Retry with backoff; `after` (an upstream Retry-After) is a floor for the delay.
        case retry(after: Duration?)
        /// Give up now: `discarded`.
        case discard
        /// Try again later without using an attempt (waiting on something that is not a failure).
        case snooze(Duration)
    }

    public let action: Action
    public let reason: String

    public static func retry(_ reason: String, after: Duration? = nil) -> JobError { .init(action: .retry(after: after), reason: reason) }
    public static func discard(_ reason: String) -> JobError { .init(action: .discard, reason: reason) }
    public static func snooze(_ delay: Duration, reason: String = "snoozed") -> JobError { .init(action: .snooze(delay), reason: reason) }

    public var description: String { reason }
}

/// A handler for one job kind. The payload is JSON-decoded for it; a payload that does not decode
/// discards the job at once with the reason recorded (never a retry loop).
public protocol JobHandler: Sendable {
    associatedtype Payload: Decodable & Sendable
    var kind: JobKind { get }
    /// True: a worker with `claimAhead` may start this kind's jobs before they are due; the handler
    /// prepares what it can and calls `context.waitUntilDue()` before the rest. False (the default):
    /// jobs start when due.
    var preparesAhead: Bool { get }
    func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome
}

extension JobHandler {
    public var preparesAhead: Bool { false }
}

/// The handlers a worker can run, by kind name.
public struct JobRegistry: Sendable {
    struct Entry: Sendable {
        let kind: JobKind
        let preparesAhead: Bool
        let run: @Sendable ([UInt8], JobContext) async throws -> JobOutcome
    }

    private(set) var entries: [String: Entry] = [:]

    public init() {}

    public mutating func register<H: JobHandler>(_ handler: H) {
        entries[handler.kind.name] = Entry(kind: handler.kind, preparesAhead: handler.preparesAhead) { bytes, context in
            let payload: H.Payload
            do {
                // An empty payload means "no fields": decode it as an empty object.
                payload = try JSONDecoder().decode(H.Payload.self, from: bytes.isEmpty ? Data("{}".utf8) : Data(bytes))
            } catch {
                throw PayloadDecodingError(kind: handler.kind.name, underlying: error)
            }
            return try await handler.run(payload, context: context)
        }
    }

    /// Adds every kind of `other`; its handler wins where both have one.
    public mutating func register(contentsOf other: JobRegistry) {
        entries.merge(other.entries) { _, theirs in theirs }
    }

    public var kinds: [JobKind] { entries.values.map(\.kind).sorted { $0.name < $1.name } }

    /// Kinds whose handlers prepare ahead of the due time.
    var preparingAhead: [String] { entries.values.filter(\.preparesAhead).map(\.kind.name).sorted() }

    func entry(for kind: String) -> Entry? { entries[kind] }

    /// JSON bytes for a payload, as handlers decode it.
    public static func encode<P: Encodable>(_ payload: P) throws -> [UInt8] {
        Array(try JSONEncoder().encode(payload))
    }
}

/// The payload of a job could not be decoded for its kind.
struct PayloadDecodingError: Error, CustomStringConvertible {
    let kind: String
    let underlying: any Error
    var description: String {
        // DecodingError's context names the coding path and what was expected; it does not echo values.
        let detail: String = switch underlying {
        case DecodingError.dataCorrupted(let c): "data corrupted at \(path(c.codingPath)): \(c.debugDescription)"
        case DecodingError.keyNotFound(let key, let c): "missing key \(path(c.codingPath + [key]))"
        case DecodingError.typeMismatch(let type, let c): "expected \(type) at \(path(c.codingPath))"
        case DecodingError.valueNotFound(let type, let c): "null where \(type) expected at \(path(c.codingPath))"
        default: "undecodable"
        }
        return "malformed payload for kind \(kind): \(detail)"
    }
    private func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "<root>" : keys.map(\.stringValue).joined(separator: ".")
    }
}

/// The built-in `noop` kind, for smoke tests, demos and benchmarks. It can sleep (to simulate work
/// or to be killed mid-job) and can fail its first attempts (to exercise retries).
public struct NoopHandler<C: Clock<Duration>>: JobHandler {
    public struct Payload: Codable, Sendable {
        public var sleepMilliseconds: Int?
        public var failAttempts: Int?
        public init(sleepMilliseconds: Int? = nil, failAttempts: Int? = nil) {
            self.sleepMilliseconds = sleepMilliseconds
            self.failAttempts = failAttempts
        }
    }

    public let kind = JobKind.noop
    let clock: C

    public init(clock: C) { self.clock = clock }

    public func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
        if let ms = payload.sleepMilliseconds, ms > 0 {
            try await clock.sleep(for: .milliseconds(ms))
        }
        if let failing = payload.failAttempts, context.attempt <= failing {
            throw JobError.retry("noop asked to fail attempt \(context.attempt) of \(failing)")
        }
        return .done
    }
}

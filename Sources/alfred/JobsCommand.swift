import CommandSupport
import AlfredCore
import ArgumentParser
import Foundation
import JobQueue
import Store

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "Inspect and steer the queue.",
        subcommands: [Stats.self, List.self, Retry.self, Cancel.self, Pause.self, Resume.self, Enqueue.self])

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Counts by queue and state, and the oldest due age.")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let logger = database.bootstrapLogging()
            let (stats, pauses) = try await withPostgres(try database.database(), logger: logger) { client in
                let store = PostgresJobStore(client: client, logger: logger)
                return (try await store.stats(), try await store.pauses())
            }
            if json {
                print(try String(decoding: JSONEncoder.pretty.encode(stats), as: UTF8.self))
                return
            }
            for pause in pauses {
                print("queue \(pause.queue) is PAUSED since \(ISO8601DateFormatter().string(from: pause.pausedAt))"
                      + (pause.reason.map { ": \($0)" } ?? ""))
            }
            print(pad("QUEUE", 16) + pad("STATE", 12) + "COUNT")
            for row in stats.rows { print(pad(row.queue, 16) + pad(row.state.rawValue, 12) + "\(row.count)") }
            let waiting = stats.ready.filter { $0.depth > 0 }
            for ready in waiting {
                print("queue \(ready.queue): \(ready.depth) ready, oldest due \(String(format: "%.1f", ready.oldestDueAgeSeconds)) s ago")
            }
            if waiting.isEmpty { print("no job is waiting past its due time") }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List jobs, earliest due first.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Only this state: \(JobState.allCases.map(\.rawValue).joined(separator: ", ")).") var state: String?
        @Option(help: "At most this many rows.") var limit = 50
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let logger = database.bootstrapLogging()
            var filter: JobState?
            if let state {
                guard let parsed = JobState(rawValue: state) else {
                    throw ValidationError("unknown state '\(state)'; use one of \(JobState.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                filter = parsed
            }
            let jobs = try await withPostgres(try database.database(), logger: logger) { [filter, limit] client in
                try await PostgresJobStore(client: client, logger: logger).list(state: filter, limit: limit)
            }
            if json {
                print(try String(decoding: JSONEncoder.pretty.encode(jobs), as: UTF8.self))
                return
            }
            let formatter = ISO8601DateFormatter()
            print(pad("ID", 38) + pad("KIND", 18) + pad("QUEUE", 10) + pad("STATE", 11) + pad("TRIES", 7) + pad("DUE", 22) + "LAST ERROR")
            for job in jobs {
                print(pad(job.id.description, 38) + pad(job.kind, 18) + pad(job.queue, 10) + pad(job.state.rawValue, 11)
                      + pad("\(job.attempts)/\(job.maxAttempts)", 7) + pad(formatter.string(from: job.dueAt), 22)
                      + (job.lastError.map { String($0.prefix(80)) } ?? ""))
            }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run a discarded, expired, cancelled or queued job now, with fresh attempts.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Job id.") var id: String

        func run() async throws {
            let logger = database.bootstrapLogging()
            guard let jobID = JobID(id) else { throw ValidationError("'\(id)' is not a job id (a UUID)") }
            let done = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresJobStore(client: client, logger: logger).retry(jobID)
            }
            guard done else { throw ValidationError("job \(jobID) is running, completed or unknown; nothing to retry") }
            print("job \(jobID) queued to run now")
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel a queued or running job (a running one's worker then writes nothing).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Job id.") var id: String

        func run() async throws {
            let logger = database.bootstrapLogging()
            guard let jobID = JobID(id) else { throw ValidationError("'\(id)' is not a job id (a UUID)") }
            let done = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresJobStore(client: client, logger: logger).cancel(jobID)
            }
            guard done else { throw ValidationError("job \(jobID) is already finished or unknown; nothing to cancel") }
            print("job \(jobID) cancelled")
        }
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop workers claiming from a queue (running jobs finish; due jobs wait, nothing is lost).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Queue name (default, delivery, ...).") var queue: String
        @Option(help: "Why, for whoever looks next (no personal data).") var reason: String?

        func run() async throws {
            let logger = database.bootstrapLogging()
            try await withPostgres(try database.database(), logger: logger) { [queue, reason] client in
                try await PostgresJobStore(client: client, logger: logger).pause(queue: queue, reason: reason)
            }
            print("queue \(queue) paused; `alfred jobs resume \(queue)` resumes it")
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resume a paused queue; its workers wake at once.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Queue name.") var queue: String

        func run() async throws {
            let logger = database.bootstrapLogging()
            let resumed = try await withPostgres(try database.database(), logger: logger) { [queue] client in
                try await PostgresJobStore(client: client, logger: logger).resume(queue: queue)
            }
            print(resumed ? "queue \(queue) resumed" : "queue \(queue) was not paused")
        }
    }

    struct Enqueue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enqueue jobs of a built-in kind (noop: smoke tests and benchmarks).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Job kind.") var kind = "noop"
        @Option(help: "How many jobs.") var count = 1
        @Option(help: "Due this many seconds from now (database clock).") var dueIn = 0.0
        @Option(help: "JSON payload, e.g. '{\"sleepMilliseconds\": 500}'.") var payload: String?
        @Option(help: "Queue (default: the kind's).") var queue: String?
        @Option(help: "Unique key (with --count 1): a second enqueue while it is live changes nothing.") var uniqueKey: String?

        func validate() throws {
            guard count >= 1 else { throw ValidationError("--count must be at least 1") }
            guard uniqueKey == nil || count == 1 else { throw ValidationError("--unique-key goes with --count 1") }
            guard dueIn >= 0 else { throw ValidationError("--due-in must not be negative") }
        }

        func run() async throws {
            let logger = database.bootstrapLogging()
            guard let kind = JobRegistry.builtIn().kinds.first(where: { $0.name == self.kind }) else {
                throw ValidationError("unknown kind '\(self.kind)'; this build enqueues: "
                    + JobRegistry.builtIn().kinds.map(\.name).joined(separator: ", "))
            }
            var bytes: [UInt8] = []
            if let payload {
                guard (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) is [String: Any] else {
                    throw ValidationError("--payload must be a JSON object")
                }
                bytes = Array(payload.utf8)
            }
            var job = NewJob(kind: kind, payload: bytes, schedule: dueIn > 0 ? .after(.seconds(dueIn)) : .now,
                             uniqueKey: uniqueKey)
            if let queue { job.queue = queue }
            let results = try await withPostgres(try database.database(), logger: logger) { [count, job] client in
                let store = PostgresJobStore(client: client, logger: logger)
                var results: [EnqueueResult] = []
                var left = count
                while left > 0 {
                    let batch = min(left, 5000)
                    results += try await store.enqueue(Array(repeating: job, count: batch), onConflict: .keep)
                    left -= batch
                }
                return results
            }
            let inserted = results.filter { if case .inserted = $0 { true } else { false } }.count
            if count == 1, let first = results.first {
                switch first {
                case .inserted(let id): print("enqueued \(id)")
                case .duplicate(let id): print("unchanged: job \(id.map(\.description) ?? "?") with that unique key is already live")
                case .rescheduled(let id): print("rescheduled \(id)")
                }
            } else {
                print("enqueued \(inserted) \(kind.name) jobs on queue \(job.queue)")
            }
        }
    }
}

func pad(_ string: String, _ width: Int) -> String {
    string.count >= width ? string + " " : string + String(repeating: " ", count: width - string.count)
}

extension JSONEncoder {
    static var pretty: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JobRegistry {
    /// The kinds `alfred jobs enqueue` may add by hand (the others are enqueued by the system).
    static func builtIn() -> JobRegistry {
        var registry = JobRegistry()
        registry.register(NoopHandler(clock: ContinuousClock()))
        return registry
    }
}

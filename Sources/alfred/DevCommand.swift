import AlfredCore
import AlfredTesting
import ArgumentParser
import Foundation
import JobQueue
import Logging
import Store

/// The embedded default: a private Postgres in a temp directory, migrated, with a worker and a few
/// demo jobs that show scheduling, a retry and a recurring job. Ctrl-C stops everything.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Run everything on a private Postgres with demo jobs (Ctrl-C stops and removes it).")

    @Option(help: "Log level.") var logLevel = "info"
    @Option(help: "Port for /metrics, /healthz, /readyz.") var metricsPort = 9464
    @OptionGroup var migrations: MigrationsOption

    func run() async throws {
        let logger = Logging.bootstrapOnce(level: logLevel)
        print("starting a private PostgreSQL cluster…")
        let cluster = try EmbeddedPostgres()
        defer {
            cluster.stop()
            print("stopped; the private cluster was removed")
        }
        let url = cluster.url(database: "postgres")
        let migrator = try Migrator(directory: migrations.directory, logger: logger)
        let outcome = try await withPostgres(url, logger: logger) { try await migrator.migrate(client: $0) }
        print("migrated: \(outcome.applied.joined(separator: ", "))")
        print("database: \(url)   (try: ALFRED_DATABASE_URL=\(url.secretString.unsafeValue) swift run alfred jobs stats)")
        print("metrics:  http://127.0.0.1:\(metricsPort)/metrics\n")

        var options = try WorkerOptions.parse(["--metrics-port", "\(metricsPort)", "--concurrency", "8",
                                               "--rescue-seconds", "5"])
        options.queues = ["default"]
        let runtime = try WorkerRuntime(database: url, options: options, logger: logger) { _, _ in
            var registry = JobRegistry.builtIn()
            registry.register(DemoSay())
            return registry
        }
        try await runtime.run(extraServices: []) { store in
            do {
                try await enqueueDemo(store)
                print("enqueued demo jobs: three reminders at +0 s, +3 s and +6 s, a flaky job that succeeds on its "
                      + "third attempt, and a recurring tick every 10 s. Ctrl-C to stop.\n")
            } catch {
                logger.error("could not enqueue demo jobs", metadata: ["alfred.error": "\(error)"])
            }
        }
    }

    private func enqueueDemo(_ store: any JobStore) async throws {
        var jobs: [NewJob] = []
        for (index, delay) in [0, 3, 6].enumerated() {
            jobs.append(NewJob(kind: DemoSay.kindValue,
                               payload: try JobRegistry.encode(DemoSay.Payload(text: "demo reminder #\(index + 1)", every: nil)),
                               schedule: .after(.seconds(delay))))
        }
        jobs.append(NewJob(kind: .noop, payload: try JobRegistry.encode(NoopHandler<ContinuousClock>.Payload(failAttempts: 2))))
        jobs.append(NewJob(kind: DemoSay.kindValue,
                           payload: try JobRegistry.encode(DemoSay.Payload(text: "recurring tick", every: 10)),
                           schedule: .after(.seconds(1)), uniqueKey: "demo.tick"))
        _ = try await store.enqueue(jobs, onConflict: .keep)
    }
}

/// Prints a line when it runs, with how late it started; optionally recurs.
struct DemoSay: JobHandler {
    struct Payload: Codable, Sendable {
        var text: String
        var every: Int?
    }
    static let kindValue = JobKind("demo.say", maxAttempts: 3)
    var kind: JobKind { Self.kindValue }

    func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
        let late = Int((context.lateness.seconds * 1000).rounded())
        let time = Date().formatted(.iso8601.time(includingFractionalSeconds: false))
        print("\(time)  ran \(payload.text) (attempt \(context.attempt), started \(late) ms after due)")
        if let every = payload.every { return .runAgain(.after(.seconds(every))) }
        return .done
    }
}

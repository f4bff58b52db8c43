import CommandSupport
import AlfredCore
import ArgumentParser
import Assistant
import Delivery
import Sealing
import Foundation
import AlfredCore
import Privacy
import Store

struct PrivacyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Delete a user's data (revoking Google first), follow the request, export what is stored.",
        subcommands: [DeleteAll.self, Status.self, Export.self, RetryRevocations.self])

    struct DeleteAll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-all",
            abstract: "Queue a delete-all for the user and print its request id (a second call while it is open prints the same id).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The user's id (a UUID).") var user: String
        @Flag(help: "Wait until the request completes and print its outcome.") var wait = false
        @Option(help: "With --wait: give up waiting after this many seconds (the request goes on).") var timeout = 600.0

        func run() async throws {
            let logger = database.bootstrapLogging()
            let userID = try parseUser(user)
            let (request, created) = try await withPostgres(try database.database(), logger: logger) { client in
                try await PrivacyKind.requestDeleteAll(userID: userID, privacy: PostgresPrivacyStore(client: client, logger: logger),
                                                       jobs: PostgresJobStore(client: client, logger: logger))
            }
            print(created ? "request_id: \(request.lowercased)" : "request_id: \(request.lowercased) (already open for this user)")
            guard wait else { return }
            let deadline = Date().addingTimeInterval(timeout)
            let done: PrivacyRequest? = try await withPostgres(try database.database(), logger: logger) { client -> PrivacyRequest? in
                let store = PostgresPrivacyStore(client: client, logger: logger)
                while true {
                    if let current = try await store.request(request), current.state == .completed { return current }
                    if Date() > deadline { return nil }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            guard let done else {
                throw ValidationError("request \(request.lowercased) did not complete within \(Int(timeout)) s; "
                    + "follow it with `alfred privacy status \(request.lowercased)` (is a worker running?)")
            }
            print(describe(done))
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a delete-all request's progress and outcome.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The request id printed by delete-all.") var requestID: String
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let logger = database.bootstrapLogging()
            guard let id = UUID(uuidString: requestID) else { throw ValidationError("'\(requestID)' is not a request id (a UUID)") }
            let request = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresPrivacyStore(client: client, logger: logger).request(id)
            }
            guard let request else { throw ValidationError("no privacy request \(id.lowercased)") }
            if json {
                print(try String(decoding: JSONEncoder.pretty.encode(request), as: UTF8.self))
            } else {
                print(describe(request))
            }
        }
    }

    struct RetryRevocations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry-revocations",
            abstract: "Queue, to run now, a privacy.revoke job for every Google grant a delete-all could not revoke yet.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = database.bootstrapLogging()
            let parked = try await withPostgres(try database.database(), logger: logger) { client in
                // A live job for the same connector is moved to now; a discarded or pruned one is replaced.
                try await ParkedRevocations.requeue(privacy: PostgresPrivacyStore(client: client, logger: logger),
                                                    jobs: PostgresJobStore(client: client, logger: logger), onConflict: .replaceSchedule)
            }
            if parked.isEmpty {
                print("no revocation is pending")
            } else {
                for entry in parked {
                    print("connector \(entry.connector.lowercased) (request \(entry.request.lowercased), parked \(ISO8601DateFormatter().string(from: entry.parkedAt))): queued")
                }
                print("\(parked.count) revocation(s) queued; follow them with `alfred privacy status REQUEST_ID`")
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write, as JSON, everything stored about the user (tokens are never exported).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The user's id (a UUID).") var user: String
        @Option(help: "Host data key file (env: ALFRED_DATA_KEY_FILE): opens the user's sealed urgency preferences for the export.")
        var dataKeyFile: String?
        @Option(help: "Write to this file (mode 0600) instead of stdout.") var output: String?

        func run() async throws {
            let logger = database.bootstrapLogging()
            let userID = try parseUser(user)
            let sealer: HostSealer?
            do {
                sealer = try (dataKeyFile ?? ProcessInfo.processInfo.environment["ALFRED_DATA_KEY_FILE"]).map(HostSealer.init(keyFile:))
            } catch { throw ValidationError("\(error)") }
            let opening = sealer != nil
            let (exported, sealedPreferences) = try await withPostgres(try database.database(), logger: logger) { [opening] client -> (String, [UInt8]?) in
                let export = try await PostgresPrivacyStore(client: client, logger: logger).export(userID: userID)
                // Sealed preferences are read only by whoever holds the key to open them (an
                // operator's role cannot read sealed columns at all).
                guard opening else { return (export, nil) }
                let profile = try await PostgresAssistantStore(client: client, jobs: PostgresJobStore(client: client, logger: logger),
                                                               logger: logger).profile(userID)
                return (export, profile?.urgencySealed)
            }
            guard var document = try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any] else {
                throw ValidationError("the export did not produce a JSON object")
            }
            guard document["user"] != nil, !(document["user"] is NSNull) else {
                throw ValidationError("no user \(userID.lowercased) (deleted, or never created)")
            }
            document["exported_at"] = Date().formatted(Date.ISO8601FormatStyle())
            document["user_id"] = userID.lowercased
            if let sealedPreferences, let sealer {
                let opened = try sealer.open(sealedPreferences, purpose: .preferences, userID: userID)
                document["urgency_preferences"] = try JSONSerialization.jsonObject(with: Data(opened))
            }
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            if let output {
                do { try PrivateFile.create(URL(fileURLWithPath: output), contents: data + Data("\n".utf8)) } catch {
                    throw ValidationError("\(error)")
                }
                print("wrote \(output)")
            } else {
                print(String(decoding: data, as: UTF8.self))
            }
        }
    }
}

func parseUser(_ text: String) throws -> UUID {
    guard let id = UUID(uuidString: text) else { throw ValidationError("'\(text)' is not a user id (a UUID)") }
    return id
}

extension UUID {
    var lowercased: String { uuidString.lowercased() }
}

private func describe(_ request: PrivacyRequest) -> String {
    let formatter = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    var lines = ["request_id: \(request.id.lowercased)", "state: \(request.state.rawValue)"]
    if let outcome = request.outcome { lines.append("outcome: \(outcome.rawValue)") }
    lines.append("requested_at: \(request.requestedAt.formatted(formatter))")
    if let started = request.startedAt { lines.append("started_at: \(started.formatted(formatter))") }
    if let completed = request.completedAt { lines.append("completed_at: \(completed.formatted(formatter))") }
    if let duration = request.duration { lines.append(String(format: "duration_seconds: %.3f", duration.seconds)) }
    lines.append("connectors_revoked: \(request.connectorsRevoked)")
    lines.append("revocations_pending: \(request.revocationsPending)"
        + (request.revocationsPending > 0 ? " (Google did not confirm; privacy.revoke jobs retry them)" : ""))
    if let rows = request.rowsDeleted {
        lines.append("rows_deleted: " + rows.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }
    return lines.joined(separator: "\n")
}

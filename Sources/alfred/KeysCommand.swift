import AlfredCore
import ArgumentParser
import Assistant
import Delivery
import Sealing
import BrokerClient
import CommandSupport
import Foundation
import Store

/// `alfred keys …`: key rotation's database side. `rewrap` moves connectors to a new key-encryption
/// key version (after `alfred-key-service rotate`); `data-key` rotates the host data key.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Key rotation's database side: rewrap (token KEKs), data-key (the host data key).",
        subcommands: [Rewrap.self, KEKUsage.self, DataKeyCommand.self])

    struct Rewrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "After a rotation: enqueue the jobs that move every connector to the new key version.",
            discussion: """
                Workers started with --broker-socket run them: a sweep lists connectors still on an older \
                version (ids only) and each connector.rewrap job asks the broker to rewrap it. Tokens are \
                never re-encrypted and users never reconnect. Safe to run twice.
                """)

        @OptionGroup var database: DatabaseOptions
        @Option(help: "Name of the key-encryption key.") var keyID = "kek-main"
        @Option(help: "The version `alfred-key-service rotate` made active.") var toVersion: Int

        func run() async throws {
            let logger = database.bootstrapLogging()
            let job = try RewrapJobs.sweepJob(keyID: keyID, toVersion: toVersion)
            let result = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresJobStore(client: client, logger: logger).enqueue([job], onConflict: .keep)
            }
            switch result.first {
            case .inserted(let id)?: print("rewrap to \(keyID) v\(toVersion) enqueued (sweep job \(id))")
            default: print("a rewrap to \(keyID) v\(toVersion) is already queued or running")
            }
        }
    }


    struct KEKUsage: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kek-usage",
            abstract: "Connectors (not revoked) per key-encryption key and version: a version with none can be retired.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = database.bootstrapLogging()
            let usage = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresConnectorStore(client: client, logger: logger).keyVersionUsage()
            }
            if usage.isEmpty { print("no connector uses any key version") }
            for row in usage { print("\(row.keyID) v\(row.version): \(row.connectors) connector(s)") }
            print("a version not listed here is used by no connector: `alfred-key-service retire --key-id ID --version N` may take it out")
        }
    }

    struct DataKeyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "data-key",
            abstract: "Rotate the host data key: add, activate, reseal, usage, remove.",
            discussion: """
                The key file (--data-key-file of workers and the API) becomes a keyring. Roll each change \
                out to every worker and API host before the next step: 1. add (every host can open the new \
                key's boxes), 2. activate (new boxes use it), 3. reseal (workers move stored values onto \
                it; `usage` shows progress), 4. remove the old key once `usage` shows no value names it.
                """,
            subcommands: [Add.self, Activate.self, Reseal.self, Usage.self, Remove.self])

        struct KeyFile: ParsableArguments {
            @Option(name: .customLong("data-key-file"), help: "The host data key file (env: ALFRED_DATA_KEY_FILE).") var path: String?

            func load() throws -> (URL, DataKeyring) {
                guard let path = path ?? ProcessInfo.processInfo.environment["ALFRED_DATA_KEY_FILE"] else {
                    throw ValidationError("pass --data-key-file or set ALFRED_DATA_KEY_FILE")
                }
                let url = URL(fileURLWithPath: path)
                guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read \(path)") }
                do { return (url, try DataKeyring(contents: data)) } catch { throw ValidationError("\(path): \(error)") }
            }

            /// Replaces the file atomically, keeping its mode and (as root) its owner and group, so the
            /// hosts' users that read it still can.
            func save(_ ring: DataKeyring, to url: URL) throws {
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                try PrivateFile.replace(url, contents: Data(ring.rendered().utf8))
                var kept: [FileAttributeKey: Any] = [:]
                for key in [FileAttributeKey.posixPermissions, .ownerAccountID, .groupOwnerAccountID] { kept[key] = attributes[key] }
                try? FileManager.default.setAttributes(kept, ofItemAtPath: url.path)
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a new random key to the ring (not active yet).")
            @OptionGroup var file: KeyFile
            func run() throws {
                var (url, ring) = try file.load()
                let id = ring.add()
                try file.save(ring, to: url)
                print("added data key \(id) to \(url.path) (active: \(ring.activeID))")
                print("next: copy the file to every worker and API host and restart them, then `alfred keys data-key activate --key-id \(id)`")
            }
        }

        struct Activate: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make a key of the ring the one new boxes are sealed with.")
            @OptionGroup var file: KeyFile
            @Option(help: "The key id (8 hex characters, as `add` printed it).") var keyID: String
            func run() throws {
                var (url, ring) = try file.load()
                do { try ring.activate(id: keyID) } catch { throw ValidationError("\(error)") }
                try file.save(ring, to: url)
                print("data key \(ring.activeID) is active in \(url.path)")
                print("next: copy the file to every worker and API host and restart them, then `alfred keys data-key reseal`")
            }
        }

        struct Reseal: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Enqueue the job that moves every stored sealed value onto the active key (workers run it).")
            @OptionGroup var database: DatabaseOptions
            @OptionGroup var file: KeyFile
            func run() async throws {
                let logger = database.bootstrapLogging()
                let (_, ring) = try file.load()
                let job = try DataKeyReseal.job(toKeyID: ring.activeID)
                let result = try await withPostgres(try database.database(), logger: logger) { client in
                    try await PostgresJobStore(client: client, logger: logger).enqueue([job], onConflict: .keep)
                }
                switch result.first {
                case .inserted(let id)?: print("re-seal onto data key \(ring.activeID) enqueued (job \(id)); follow it with `alfred keys data-key usage`")
                default: print("a re-seal onto data key \(ring.activeID) is already queued or running")
                }
            }
        }

        struct Usage: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "How many stored values name each data key, per column.")
            @OptionGroup var database: DatabaseOptions
            func run() async throws {
                let logger = database.bootstrapLogging()
                let usage = try await withPostgres(try database.database(), logger: logger) { client in
                    try await DataKeyReseal.usage(PostgresSealedDataStore(client: client, logger: logger))
                }
                if usage.isEmpty { print("no sealed values are stored") }
                for (column, keys) in usage.sorted(by: { $0.key < $1.key }) {
                    print("\(column): " + keys.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", "))
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove a key from the ring once no stored value names it (the database is checked first).")
            @OptionGroup var database: DatabaseOptions
            @OptionGroup var file: KeyFile
            @Option(help: "The key id to remove.") var keyID: String
            func run() async throws {
                let logger = database.bootstrapLogging()
                var (url, ring) = try file.load()
                let id = keyID.lowercased()
                let usage = try await withPostgres(try database.database(), logger: logger) { client in
                    try await DataKeyReseal.usage(PostgresSealedDataStore(client: client, logger: logger))
                }
                let inUse = usage.compactMap { column, keys in keys[id].map { "\(column): \($0)" } }.sorted()
                guard inUse.isEmpty else {
                    throw ValidationError("data key \(id) still seals stored values (\(inUse.joined(separator: ", "))); "
                        + "run `alfred keys data-key reseal` and wait until `usage` shows none")
                }
                do { try ring.remove(id: id) } catch { throw ValidationError("\(error)") }
                try file.save(ring, to: url)
                print("removed data key \(id) from \(url.path); copy the file to every worker and API host")
            }
        }
    }
}

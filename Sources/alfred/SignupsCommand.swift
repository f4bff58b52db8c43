import AlfredCore
import API
import ArgumentParser
import CommandSupport
import Foundation
import Sealing
import Store

/// Who may create an account (RFC §13's rollout). Existing accounts always sign in. Each change is
/// appended to the operators' audit chain (`alfred audit list --user 00000000-0000-0000-0000-000000000000`).
struct SignupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signups",
        abstract: "Set who may create an account: an allow-list, invitations and a user cap.",
        subcommands: [Show.self, Policy.self, Allow.self, Disallow.self, Invite.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the policy, the number of accounts, allow-listed identities and open invitations.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let logger = database.bootstrapLogging()
            let summary = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresSignupStore(client: client, logger: logger).summary()
            }
            print("""
                mode: \(summary.policy.mode.rawValue)
                user cap: \(summary.policy.userCap.map(String.init) ?? "none")
                accounts: \(summary.accounts)
                allow-listed identities: \(summary.allowListed)
                open invitations: \(summary.openInvites)
                """)
        }
    }

    struct Policy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the mode (open: anyone; invite: with an invitation; closed: allow-listed only) and the user cap.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "open, invite or closed.") var mode: String
        @Option(help: "At most this many accounts (allow-listed identities are always admitted).") var cap: Int?
        @Flag(help: "No cap.") var noCap = false

        func validate() throws {
            guard SignupPolicy.Mode(rawValue: mode) != nil else { throw ValidationError("--mode must be open, invite or closed") }
            if let cap, cap < 0 { throw ValidationError("--cap must be 0 or more") }
            if cap != nil && noCap { throw ValidationError("give --cap or --no-cap, not both") }
            if cap == nil && !noCap { throw ValidationError("give --cap N or --no-cap (the cap is part of the policy)") }
        }

        func run() async throws {
            let logger = database.bootstrapLogging()
            let policy = SignupPolicy(mode: SignupPolicy.Mode(rawValue: mode)!, userCap: noCap ? nil : cap)
            try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresSignupStore(client: client, logger: logger).setPolicy(policy)
            }
            print("signups: \(policy.mode.rawValue), user cap \(policy.userCap.map(String.init) ?? "none")")
        }
    }

    /// An identity: the email the person signs in to Apple with (as Apple reports it, verified), or
    /// their Apple account id. Kept only as a keyed hash with the host data key.
    struct IdentityOptions: ParsableArguments {
        @Argument(help: "An email address or an Apple account id (`sub`).") var identity: String
        @Option(help: "Host data key file (env: ALFRED_DATA_KEY_FILE): identities are stored as keyed hashes.")
        var dataKeyFile: String?

        func hash() throws -> String {
            guard let path = dataKeyFile ?? ProcessInfo.processInfo.environment["ALFRED_DATA_KEY_FILE"] else {
                throw ValidationError("give --data-key-file (or ALFRED_DATA_KEY_FILE): identities are kept only as keyed hashes")
            }
            let sealer: HostSealer
            do { sealer = try HostSealer(keyFile: path) } catch { throw ValidationError("\(error)") }
            let value = identity.trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else { throw ValidationError("the identity is empty") }
            return sealer.keyedHash("signup-identity", value.contains("@") ? value.lowercased() : value)
        }
    }

    struct Allow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Admit an identity whatever the mode and cap (the team).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var identity: IdentityOptions

        func run() async throws {
            let logger = database.bootstrapLogging()
            let hash = try identity.hash()
            let added = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresSignupStore(client: client, logger: logger).setAllowed(hash, true)
            }
            print(added ? "allow-listed" : "already allow-listed")
        }
    }

    struct Disallow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an identity from the allow-list (an existing account stays).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var identity: IdentityOptions

        func run() async throws {
            let logger = database.bootstrapLogging()
            let hash = try identity.hash()
            let removed = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresSignupStore(client: client, logger: logger).setAllowed(hash, false)
            }
            print(removed ? "removed from the allow-list" : "was not allow-listed")
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create invitation codes (single use) and print them; only their hashes are stored.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "How many codes.") var count = 1
        @Option(help: "Days until they expire.") var days = 14

        func validate() throws {
            guard (1...1000).contains(count) else { throw ValidationError("--count must be 1 to 1000") }
            guard (1...365).contains(days) else { throw ValidationError("--days must be 1 to 365") }
        }

        func run() async throws {
            let logger = database.bootstrapLogging()
            let codes = (0..<count).map { _ in InviteCode.generate() }
            let expires = Date().addingTimeInterval(Double(days) * 86_400)
            try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresSignupStore(client: client, logger: logger).addInvites(codes.compactMap(InviteCode.storedHash), expiresAt: expires)
            }
            for code in codes { print(code) }
            FileHandle.standardError.write(Data("\(count) invitation(s), valid until \(expires.formatted(Date.ISO8601FormatStyle())); shown once\n".utf8))
        }
    }
}

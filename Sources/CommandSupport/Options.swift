import AlfredCore
import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import Store

/// Options every database command shares. Each flag falls back to an environment variable.
public struct DatabaseOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("database-url"),
            help: "Postgres URL, postgres://user:password@host:5432/db (env: ALFRED_DATABASE_URL).")
    public var databaseURL: String?

    @Option(name: .customLong("database-password-file"),
            help: "File holding the database password, which then stays out of the URL (env: ALFRED_DATABASE_PASSWORD_FILE; a docker-compose secret or systemd credential).")
    public var databasePasswordFile: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error (env: ALFRED_LOG_LEVEL).")
    public var logLevel: String?

    public func database() throws -> DatabaseURL {
        let environment = ProcessInfo.processInfo.environment
        guard let string = databaseURL ?? environment["ALFRED_DATABASE_URL"] else {
            throw ValidationError("no database: pass --database-url or set ALFRED_DATABASE_URL "
                + "(or run `alfred-dev` for a private one)")
        }
        do {
            var url = try DatabaseURL(string)
            if let file = databasePasswordFile ?? environment["ALFRED_DATABASE_PASSWORD_FILE"] {
                guard url.password == nil else {
                    throw ValidationError("the database URL holds a password and a password file is given: keep the password in the file only")
                }
                url.password = Redacted(try PrivateFile.secretLine(URL(fileURLWithPath: file)))
            }
            return url
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(error)")
        }
    }

    public func bootstrapLogging() -> Logger {
        AlfredLogging.bootstrapOnce(level: logLevel ?? ProcessInfo.processInfo.environment["ALFRED_LOG_LEVEL"])
    }
}

public enum AlfredLogging {
    nonisolated(unsafe) private static var done = false

    /// Logs go to stderr; output meant for people or scripts goes to stdout.
    public static func bootstrapOnce(level: String?) -> Logger {
        let level = level.flatMap(Logger.Level.init(rawValue:)) ?? .info
        if !done {
            done = true
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        var logger = Logger(label: "alfred")
        logger.logLevel = level
        return logger
    }
}

/// The migrations directory: `--migrations`, else ALFRED_MIGRATIONS, else ./migrations.
public struct MigrationsOption: ParsableArguments {
    public init() {}

    @Option(help: "Directory of NNNN_name.sql migrations (env: ALFRED_MIGRATIONS; default ./migrations).")
    public var migrations: String?

    public var directory: URL {
        URL(fileURLWithPath: migrations ?? ProcessInfo.processInfo.environment["ALFRED_MIGRATIONS"] ?? "migrations")
    }
}

/// Runs `body` with a started PostgresClient, then shuts it down.
public func withPostgres<T: Sendable>(_ url: DatabaseURL, logger: Logger, maxConnections: Int = 4,
                               _ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
    var quiet = logger
    quiet.logLevel = max(logger.logLevel, .error)  // one-shot commands: errors surface as thrown errors
    let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: maxConnections), backgroundLogger: quiet)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        do {
            return try await body(client)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
            throw DatabaseRefusal(role: url.username, message: error.serverInfo?[.message] ?? "permission denied")
        }
    }
}

/// A statement the command's database role may not run (SQLSTATE 42501), said with the server's
/// message (which names a table, column, function or event type, never a row's values) and the role,
/// so an operator knows which credential to use. Other database errors keep PostgresNIO's redacted text.
public struct DatabaseRefusal: Error, CustomStringConvertible {
    public let role: String
    public let message: String
    public var description: String {
        "the database role \(role) may not do this (\(message)); run the command with a role that may (ops/runbooks/roles.md)"
    }
}

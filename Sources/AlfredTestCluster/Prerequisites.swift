import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program a test runs that is not part of Swift: PostgreSQL's server tools, promtool, Prometheus,
/// docker-compose, curl, jq, openssl, and Python with venv. Each comes from one Debian package.
public enum SystemTool: String, Sendable, CaseIterable {
    case initdb, promtool, prometheus, dockerCompose = "docker-compose", curl, jq, openssl
    /// `python3` with its `venv` and `ensurepip` modules (the conformance checks' virtualenv).
    case pythonVenv = "python3"

    /// The Debian package that provides it.
    public var debianPackages: [String] {
        switch self {
        case .initdb: ["postgresql"]
        case .promtool, .prometheus: ["prometheus"]
        case .dockerCompose: ["docker-compose"]
        case .curl: ["curl"]
        case .jq: ["jq"]
        case .openssl: ["openssl"]
        case .pythonVenv: ["python3", "python3-venv", "python3-pip"]
        }
    }
}

/// Finds the programs tests run, and on a fresh Debian machine installs what is missing, the way the
/// README's test command is promised to work there: as root, with `apt-get`, unless
/// `ALFRED_NO_AUTO_INSTALL` is set (then the error says what to install). Installs are serialised
/// (one `apt-get` at a time, `apt-get update` once per test process), and suites that need the same
/// package share one install.
public enum Prerequisites {
    /// The tool's path, installing its package first if it is missing and that is allowed.
    public static func path(of tool: SystemTool) async throws -> String {
        if let found = await locate(tool) { return found }
        await install(tool.debianPackages, reason: "\(tool.rawValue) not found")
        if let found = await locate(tool) { return found }
        throw PrerequisiteError(tool)
    }

    /// Where the tool is now, if anywhere (PATH, then the usual directories).
    public static func locate(_ tool: SystemTool) async -> String? {
        switch tool {
        case .initdb:
            return postgresBinaries()?.appendingPathComponent("initdb").path
        case .pythonVenv:
            guard let python = executable("python3") else { return nil }
            let check = try? await run(python, ["-c", "import venv, ensurepip"])
            return check?.code == 0 ? python : nil
        default:
            return executable(tool.rawValue)
        }
    }

    /// The directory holding `initdb` and `pg_ctl`: on PATH, or Debian's `/usr/lib/postgresql/<version>/bin`, newest first.
    public static func postgresBinaries() -> URL? {
        var candidates = searchPath.map { URL(fileURLWithPath: $0) }
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: debian.path) {
            candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
                .map { debian.appendingPathComponent($0).appendingPathComponent("bin") }
        }
        return candidates.first { directory in
            ["initdb", "pg_ctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent($0).path) }
        }
    }

    private static var searchPath: [String] {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin"]
    }

    private static func executable(_ name: String) -> String? {
        searchPath.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether this process may install packages: root, apt-get present, and not refused.
    static var mayInstall: Bool {
        geteuid() == 0 && ProcessInfo.processInfo.environment["ALFRED_NO_AUTO_INSTALL"] == nil
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get")
    }

    private struct Installs {
        /// The last install started; the next one waits for it (dpkg takes one at a time).
        var tail: Task<Void, Never>?
        var updated = false
        var done: [String: Task<Bool, Never>] = [:]
    }
    private static let installs = Mutex(Installs())

    /// Installs `packages` once per process (later callers await the same install). Does nothing when
    /// installing is not allowed; the caller's error then names the package.
    static func install(_ packages: [String], reason: String) async {
        guard mayInstall else { return }
        let key = packages.joined(separator: " ")
        let task = installs.withLock { state -> Task<Bool, Never> in
            if let existing = state.done[key] { return existing }
            let previous = state.tail
            let task = Task<Bool, Never> {
                await previous?.value
                let update = installs.withLock { state in defer { state.updated = true }; return !state.updated }
                FileHandle.standardError.write(Data("\(reason); installing Debian's \(key) (set ALFRED_NO_AUTO_INSTALL=1 to refuse)…\n".utf8))
                let environment = ["DEBIAN_FRONTEND": "noninteractive"]
                if update { _ = try? await run("/usr/bin/apt-get", ["update"], environment: environment) }
                let result = try? await run("/usr/bin/apt-get", ["install", "-y", "--no-install-recommends"] + packages,
                                            environment: environment)
                if let result, result.code != 0 {
                    FileHandle.standardError.write(Data("apt-get install \(key) failed (exit \(result.code)): \(result.output.suffix(600))\n".utf8))
                }
                return result?.code == 0
            }
            state.done[key] = task
            state.tail = Task { _ = await task.value }
            return task
        }
        _ = await task.value
    }
}

/// A program a test needs is missing and was not installed; says how to get it.
public struct PrerequisiteError: Error, CustomStringConvertible {
    public let tool: SystemTool
    init(_ tool: SystemTool) { self.tool = tool }

    public var description: String {
        let packages = tool.debianPackages.joined(separator: " ")
        let why: String
        if ProcessInfo.processInfo.environment["ALFRED_NO_AUTO_INSTALL"] != nil {
            why = "ALFRED_NO_AUTO_INSTALL is set, so the tests did not install it"
        } else if geteuid() != 0 {
            why = "the tests install it themselves only when run as root"
        } else if !FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") {
            why = "this machine has no apt-get"
        } else {
            why = "installing it failed (see the apt-get output above)"
        }
        return "\(tool.rawValue) not found: install it with `apt-get install -y --no-install-recommends \(packages)` (\(why))"
    }
}

/// The pinned Python virtualenv of the conformance checks (Google's own API client, schemathesis),
/// made once by `Tests/conformance/bootstrap_venv.sh`; needs Python with venv (installed like any
/// other prerequisite) and PyPI the first time.
public enum ConformanceVenv {
    /// The venv's python.
    public static func python() async throws -> String {
        _ = try await Prerequisites.path(of: .pythonVenv)
        let script = Repository.url("Tests/conformance/bootstrap_venv.sh").path
        let (code, output) = try await run("/bin/bash", [script])
        let python = output.split(separator: "\n").last.map(String.init) ?? ""
        guard code == 0, FileManager.default.isExecutableFile(atPath: python) else {
            throw ConformanceVenvError(description: """
                Tests/conformance/bootstrap_venv.sh failed (exit \(code)); it needs python3 with venv, and PyPI once to \
                install its pinned packages:
                \(output.suffix(4000))
                """)
        }
        return python
    }

    /// An executable the venv installed (`schemathesis`).
    public static func executable(_ name: String) async throws -> String {
        URL(fileURLWithPath: try await python()).deletingLastPathComponent().appendingPathComponent(name).path
    }
}

public struct ConformanceVenvError: Error, CustomStringConvertible {
    public let description: String
}

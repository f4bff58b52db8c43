import AlfredTestCluster
import Foundation
import Store
import Testing

/// docker-compose.yml, the systemd units and the scrape config agree with each other and with the
/// migrations (read as text: `docker compose config` checks the syntax, where an engine is installed).
@Suite(.timeLimit(.minutes(5))) struct DeploymentTests {
    static let compose = "docker-compose.yml"

    /// Names of the services under `services:` (two-space indented keys).
    static func composeServices() throws -> Set<String> {
        var services: Set<String> = []
        var inServices = false
        for line in try OpsFiles.text(compose).split(separator: "\n") {
            if let key = line.wholeMatch(of: #/([A-Za-z0-9_.-]+):\s*/#) { inServices = key.output.1 == "services"; continue }
            if inServices, let service = line.wholeMatch(of: #/  ([A-Za-z0-9_.-]+):\s*/#) { services.insert(String(service.output.1)) }
        }
        return services
    }

    /// Every executable the deployment files start exists (this build made it), every production
    /// executable is shipped by the image and started by a unit, and none of them starts the dev stack.
    @Test func deploymentStartsTheRolesExecutables() throws {
        let units = try OpsFiles.files(in: "ops/systemd", suffix: ".service").map { try OpsFiles.text($0) }.joined(separator: "\n")
        let compose = try OpsFiles.text(Self.compose), dockerfile = try OpsFiles.text("ops/Dockerfile")
        let started = Set((units + compose).matches(of: #//opt/alfred/bin/([a-z-]+)/#).map { String($0.output.1) })
        #expect(started == ["alfred", "alfred-broker", "alfred-key-service", "alfred-attestor"], "\(started.sorted())")
        for name in started {
            _ = try AlfredBinary.named(name)
            #expect(dockerfile.contains("/src/.build/release/\(name) ") || dockerfile.contains("/src/.build/release/\(name)\n"),
                    "ops/Dockerfile does not ship \(name)")
            #expect(dockerfile.contains(" \(name) ") || dockerfile.contains(" \(name);"), "ops/Dockerfile does not build \(name)")
        }
        let builds = dockerfile.split(separator: "\n").filter { $0.contains("swift build") || $0.contains("for product in") }
        #expect(!builds.isEmpty && !builds.contains { $0.contains("alfred-dev") || $0.contains("alfred-bench") }, "\(builds)")
    }

    /// Every login role a migration creates gets its password from a secret file when compose's
    /// `migrate` runs (`--role-passwords`): a service connecting as a role without one fails at start.
    @Test func migrateSetsEveryRolesPasswordFromASecretFile() throws {
        let migrations = try OpsFiles.files(in: "migrations", suffix: ".sql").map { try OpsFiles.text($0) }.joined(separator: "\n")
        let roles = Set(migrations.matches(of: #/CREATE ROLE (\w+) LOGIN/#).map { String($0.output.1) })
        #expect(roles.contains("alfred_api"), "\(roles)")
        #expect(roles == Set(RolePasswords.roles), "alfred migrate --role-passwords sets \(RolePasswords.roles), the migrations create \(roles.sorted())")
        let compose = try OpsFiles.text(Self.compose)
        #expect(compose.contains(#"command: ["migrate", "--role-passwords", "/run/secrets"]"#))
        for role in roles {
            #expect(compose.contains("\(role)_password:\n    file: ${ALFRED_SECRETS_DIR:?"), "no secret file for \(role)")
            #expect(compose.contains("postgres://\(role)@"), "no service in docker-compose.yml connects as \(role)")
        }
    }

    /// What compose must be given: the folder of secret files, and identifiers that are not secret.
    static let secrets = ["ALFRED_SECRETS_DIR", "GOOGLE_CLIENT_ID", "GOOGLE_REDIRECT_URI", "APNS_KEY_ID", "APNS_TEAM_ID"]

    /// No secret has a default: every use is `${NAME:?…}`, so compose refuses to start without it.
    @Test func composeHasNoPlaceholderSecrets() throws {
        let compose = try OpsFiles.text(Self.compose)
        #expect(!compose.lowercased().contains("change-me") && !compose.contains("CHANGEME"))
        for name in Self.secrets {
            let uses = compose.matches(of: try Regex("\\$\\{\(name)(:?[-?=+])?[^}]*\\}")).map { String(compose[$0.range]) }
            #expect(!uses.isEmpty, "\(name) is not used")
            for use in uses { #expect(use.hasPrefix("${\(name):?"), "\(use) must fail when unset, not fall back") }
        }
    }

    /// Every scrape target in prometheus.yml (but Prometheus itself) is a docker-compose service.
    @Test func scrapeTargetsAreComposeServices() throws {
        let services = try Self.composeServices()
        #expect(services.contains("api"), "\(services)")
        // Comments left out: they hold a sample Alertmanager target.
        let config = try OpsFiles.text(OpsFiles.prometheusConfig).split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
        let targets = config.matches(of: #/"([A-Za-z0-9_.-]+):(\d+)"/#).map { String($0.output.1) }.filter { $0 != "localhost" }
        #expect(!targets.isEmpty)
        for host in targets {
            #expect(services.contains(host), "prometheus.yml scrapes \(host), which docker-compose.yml does not define")
        }
    }

    /// On a host every unit's metrics port is distinct; alfred-worker@N takes 946N for N in 1...9.
    @Test func systemdMetricsPortsDoNotCollide() throws {
        var owners: [Int: String] = [:]
        for unit in try OpsFiles.files(in: "ops/systemd", suffix: ".service") {
            let text = try OpsFiles.text(unit)
            for match in text.matches(of: #/--metrics-port (\d+)(%i)?/#) {
                let base = Int(match.output.1)!
                let ports = match.output.2 == nil ? [base] : (1...9).map { base * 10 + $0 }
                for port in ports {
                    #expect(owners[port] == nil, "\(unit) and \(owners[port] ?? "") both use metrics port \(port)")
                    owners[port] = unit
                }
            }
        }
        #expect(owners.values.contains("ops/systemd/alfred-api.service"), "alfred-api.service serves no metrics")
    }

    /// Long-running units run as their own user with the common hardening; none as root.
    @Test func longRunningUnitsRunHardenedAsTheirOwnUser() throws {
        for unit in try OpsFiles.files(in: "ops/systemd", suffix: ".service") {
            let text = try OpsFiles.text(unit)
            if text.contains("Type=oneshot") { continue }
            let user = text.firstMatch(of: #/\nUser=(\S+)/#).map { String($0.output.1) }
            #expect(user != nil && user != "root", "\(unit): User=\(user ?? "missing")")
            for option in ["NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "Restart=always"] {
                #expect(text.contains("\n\(option)"), "\(unit): no \(option)")
            }
        }
    }
}

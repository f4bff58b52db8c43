import AlfredTestCluster
import Foundation
import Store
import Testing
import Yams

/// Role × OS user × flags, as the deployment files say (issue #32): each process runs as its own
/// user, the broker gives workers every operation and the API connect only, and each socket admits
/// exactly its callers' group. Read from `docker-compose config` (Debian's docker-compose) and from
/// the systemd units, so a compose file that undoes the uid split fails here.
@Suite(.timeLimit(.minutes(10))) struct DeploymentMatrixTests {
    struct Role {
        let service: String, uid: String, groups: Set<String>, volumes: Set<String>
    }

    static let broker = "10003", worker = "10001", api = "10004", keys = "10005", attestor = "10002"
    static let roles = [
        Role(service: "worker-1", uid: worker, groups: ["10101", "10104"], volumes: ["broker-socket", "data-key"]),
        Role(service: "worker-2", uid: worker, groups: ["10101", "10104"], volumes: ["broker-socket", "data-key"]),
        Role(service: "api", uid: api, groups: ["10101", "10104"], volumes: ["broker-socket", "data-key", "session-key"]),
        Role(service: "broker", uid: broker, groups: ["10101", "10102", "10103"], volumes: ["broker-socket", "key-socket", "attestor-socket"]),
        Role(service: "key-service", uid: keys, groups: ["10102"], volumes: ["keys", "key-socket"]),
        Role(service: "attestor", uid: attestor, groups: ["10103"], volumes: ["attestation", "attestor-socket"]),
    ]

    static func composeConfig() async throws -> [String: [String: Any]] {
        let path = try await Prerequisites.path(of: .dockerCompose)
        var environment = Dictionary(uniqueKeysWithValues: DeploymentTests.secrets.map { ($0, "test-\($0.lowercased())") })
        environment["APNS_KEY_PATH"] = "/dev/null"
        let config = try await AlfredTestCluster.run(path, ["-f", DeploymentTests.compose, "config"], environment: environment,
                                                     directory: Repository.root)
        #expect(config.code == 0, "\(config.output)")
        let document = try #require(try Yams.load(yaml: config.output) as? [String: Any])
        return try #require(document["services"] as? [String: [String: Any]])
    }

    /// The values after each `flag` in a command list.
    static func values(_ flag: String, in command: [String]) -> [String] {
        zip(command, command.dropFirst()).filter { $0.0 == flag }.map(\.1)
    }

    static func volumes(of service: [String: Any]) -> Set<String> {
        Set((service["volumes"] as? [Any] ?? []).compactMap { entry -> String? in
            if let text = entry as? String { return text.split(separator: ":").first.map(String.init) }
            return (entry as? [String: Any])?["source"] as? String
        })
    }

    @Test func composeRunsEachRoleAsItsOwnUserWithExactlyItsCallersGroups() async throws {
        let services = try await Self.composeConfig()
        for role in Self.roles {
            let service = try #require(services[role.service], "no service \(role.service)")
            #expect(service["user"] as? String == "\(role.uid):\(role.uid)", "\(role.service): user \(service["user"] ?? "none")")
            let groups = Set((service["group_add"] as? [Any] ?? []).map { "\($0)" })
            #expect(groups == role.groups, "\(role.service): group_add \(groups.sorted())")
            let mounted = Self.volumes(of: service)
            #expect(mounted == role.volumes, "\(role.service) mounts \(mounted.sorted())")
        }
        #expect(Set([Self.worker, Self.api, Self.broker, Self.keys, Self.attestor]).count == 5, "one user per role")
        // Nothing but the roles that need it runs as root, and nothing else has a role's uid.
        for (name, service) in services where !Self.roles.contains(where: { $0.service == name }) {
            let user = service["user"] as? String
            #expect(["keys-init", "data-key-init", "migrate", "session-key-init"].contains(name) || user == nil || user == "root",
                    "\(name) runs as \(user ?? "the image's user")")
        }

        let brokerCommand = try #require(services["broker"]?["command"] as? [String])
        #expect(Self.values("--allow-uid", in: brokerCommand) == [Self.worker], "only workers get tokens: \(brokerCommand)")
        #expect(Self.values("--allow-connect-uid", in: brokerCommand) == [Self.api], "the API connects and disconnects only")
        #expect(Self.values("--socket-group", in: brokerCommand) == ["10101"])
        let keyCommand = try #require(services["key-service"]?["command"] as? [String])
        #expect(Self.values("--socket-group", in: keyCommand) == ["10102"])
        let attestorCommand = try #require(services["attestor"]?["command"] as? [String])
        #expect(Self.values("--allow-uid", in: attestorCommand) == [Self.broker], "evidence for the broker's processes only")
        #expect(Self.values("--socket-group", in: attestorCommand) == ["10103"])
        // Each socket group holds exactly the socket's server and its callers.
        for (group, members) in [("10101", Set(["worker-1", "worker-2", "api", "broker"])), ("10102", ["broker", "key-service"]),
                                 ("10103", ["broker", "attestor"]), ("10104", ["worker-1", "worker-2", "api"])] {
            let holders = Set(services.filter { ($0.value["group_add"] as? [Any] ?? []).map { "\($0)" }.contains(group) }.keys)
            #expect(holders == members, "group \(group): \(holders.sorted())")
        }
    }

    /// The image defines the same ids the compose file uses.
    /// Passwords reach a container only as secret files, each only where its role needs it: no
    /// database URL holds one, no environment value is one, and no command line carries one.
    @Test func composePassesPasswordsOnlyAsSecretFilesToTheRolesThatUseThem() async throws {
        let services = try await Self.composeConfig()
        let expected: [String: Set<String>] = [
            "postgres": ["alfred_owner_password"],
            "migrate": ["alfred_owner_password", "alfred_worker_password", "alfred_broker_password", "alfred_api_password"],
            "worker-1": ["alfred_worker_password"], "worker-2": ["alfred_worker_password"],
            "broker": ["apns_key", "alfred_broker_password", "google_client_secret"],
            "api": ["alfred_api_password"],
        ]
        for (name, service) in services {
            let secrets = Set((service["secrets"] as? [Any] ?? []).compactMap { entry -> String? in
                (entry as? String) ?? (entry as? [String: Any])?["source"] as? String
            })
            #expect(secrets == expected[name] ?? [], "\(name) mounts the secrets \(secrets.sorted())")
            let environment = service["environment"] as? [String: Any] ?? [:]
            for (key, value) in environment {
                let text = "\(value)"
                #expect(!(key.hasSuffix("PASSWORD") || key.hasSuffix("SECRET")), "\(name): \(key) is a secret in the environment")
                if key == "ALFRED_DATABASE_URL" {
                    let url = try #require(URLComponents(string: text))
                    #expect(url.password == nil, "\(name): the database URL holds a password")
                    #expect(environment["ALFRED_DATABASE_PASSWORD_FILE"].map { "\($0)".hasPrefix("/run/secrets/") } == true,
                            "\(name) connects without a password file")
                }
            }
            let command = (service["command"] as? [Any] ?? []).map { "\($0)" }.joined(separator: " ")
            #expect(!command.localizedCaseInsensitiveContains("PASSWORD '"), "\(name) passes a password on its command line")
        }
    }

    /// The systemd units hand passwords over as credentials (files only that unit can read), never
    /// in an environment file: each service reads its database password from one.
    @Test func systemdUnitsPassPasswordsAsCredentials() throws {
        for (unit, role) in [("alfred-worker@.service", "alfred_worker"), ("alfred-api.service", "alfred_api"), ("alfred-broker.service", "alfred_broker")] {
            let text = try OpsFiles.text("ops/systemd/\(unit)")
            #expect(text.contains("LoadCredential=db-password:/etc/alfred/db/\(role)_password"), "\(unit)")
            #expect(text.contains("Environment=ALFRED_DATABASE_PASSWORD_FILE=%d/db-password"), "\(unit)")
        }
        let broker = try OpsFiles.text("ops/systemd/alfred-broker.service")
        #expect(broker.contains("Environment=GOOGLE_CLIENT_SECRET_FILE=%d/google-client-secret"))
        let migrate = try OpsFiles.text("ops/systemd/alfred-migrate.service")
        #expect(migrate.contains("--role-passwords ${CREDENTIALS_DIRECTORY}") && migrate.contains("ALFRED_DATABASE_PASSWORD_FILE=%d/alfred_owner_password"))
        for role in RolePasswords.roles {
            #expect(migrate.contains("LoadCredential=\(role)_password:/etc/alfred/db/\(role)_password"), "migrate lacks \(role)")
        }
    }

    @Test func theImageDefinesTheUsersAndGroupsComposeNames() throws {
        let dockerfile = try OpsFiles.text("ops/Dockerfile")
        for (name, uid) in [("alfred-worker", Self.worker), ("alfred-attestor", Self.attestor), ("alfred-broker", Self.broker),
                            ("alfred-api", Self.api), ("alfred-keys", Self.keys)] {
            #expect(dockerfile.contains("--uid \(uid) --gid \(uid)") && dockerfile.contains(" \(name) \\"), "\(name) \(uid)")
        }
        for (name, gid) in [("alfred-broker-clients", "10101"), ("alfred-keys-clients", "10102"), ("alfred-attestor-clients", "10103"),
                            ("alfred-data-key", "10104")] {
            #expect(dockerfile.contains("groupadd --system --gid \(gid) \(name)"), "\(name) \(gid)")
        }
    }

    /// The systemd units say the same, by account name; no unit runs a root helper on a socket.
    @Test func systemdUnitsRunEachRoleAsItsOwnUserAndLetOnlyItsCallersIn() throws {
        func unit(_ name: String) throws -> String { try OpsFiles.text("ops/systemd/\(name)") }
        let broker = try unit("alfred-broker.service"), keys = try unit("alfred-keys.service"), attestor = try unit("alfred-attestor.service")
        #expect(broker.contains("\nUser=alfred-broker\n"))
        #expect(broker.contains(#"--allow-uid "$$(id -u alfred-worker)""#) && broker.contains(#"--allow-connect-uid "$$(id -u alfred-api)""#))
        #expect(!broker.contains(#"--allow-uid "$$(id -u alfred-api)""#), "the API never gets tokens")
        #expect(broker.contains("getent group alfred-broker-clients"))
        #expect(broker.contains("SupplementaryGroups=alfred-broker-clients alfred-keys-clients alfred-attestor-clients"))
        #expect(keys.contains("\nUser=alfred-keys\n") && keys.contains("getent group alfred-keys-clients")
                && keys.contains("SupplementaryGroups=alfred-keys-clients"))
        #expect(attestor.contains("\nUser=alfred-attestor\n") && attestor.contains(#"--allow-uid "$$(id -u alfred-broker)""#)
                && attestor.contains("getent group alfred-attestor-clients"))
        for name in ["alfred-worker@.service", "alfred-api.service"] {
            #expect(try unit(name).contains("SupplementaryGroups=alfred-broker-clients"), "\(name)")
        }
        for name in try OpsFiles.files(in: "ops/systemd", suffix: ".service") {
            #expect(!(try OpsFiles.text(name)).contains("ExecStartPost=+"), "\(name) runs a helper as root")
        }
        #expect(!FileManager.default.fileExists(atPath: OpsFiles.url("ops/systemd/alfred-socket-access").path))
    }
}

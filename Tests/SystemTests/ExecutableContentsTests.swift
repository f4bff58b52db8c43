import AlfredTestCluster
import Foundation
import Testing

/// One executable per role, each linking only its role's code, checked in the built files
/// themselves by the modules' mangled names in their symbols:
/// - no production executable links the testing module or the stand-ins (nor the embedded Postgres
///   that installs packages as root), so the broker's measurement changes only with code the broker
///   runs, and nothing of the dev stack ships;
/// - the worker and API executable (`alfred`) contains neither the broker's server nor the key
///   service: no code that runs there can ask for a refresh token to be decrypted, only for access tokens;
/// - the broker, the key service and the attestor each contain none of the others' servers.
/// `alfred-dev` is the control that the check can see a module when it is there.
@Suite(.timeLimit(.minutes(5))) struct ExecutableContentsTests {
    /// Every symbol a Swift module defines at top level starts with `$s`, the module's name's length
    /// and the name (a name inside another symbol could also be a mangled word, so only this prefix counts).
    static func mangled(_ module: String) -> String { "$s\(module.utf8.count)\(module)" }

    static let devOnly = ["AlfredTestKit", "AlfredTestCluster", "StandIns"]
    static let forbidden: [String: [String]] = [
        "alfred": devOnly + ["TokenBroker", "KeyService", "Attestor"],
        // The broker mints APNs provider tokens (APNsProviderToken) but never sends a push: no APNs
        // client, so an APNs change does not change its measurement. (NIOHTTP2 is still linked:
        // AsyncHTTPClient, its Google client, carries HTTP/2 support.)
        "alfred-broker": devOnly + ["KeyService", "Attestor", "Assistant", "GoogleAPI", "Sealing", "Delivery", "APNs"],
        "alfred-key-service": devOnly + ["TokenBroker", "Attestor", "Assistant", "GoogleAPI", "BrokerClient", "Sealing", "Delivery"],
        "alfred-attestor": devOnly + ["TokenBroker", "KeyService", "Assistant", "GoogleAPI", "BrokerClient", "Sealing", "Delivery"],
    ]

    static func modules(_ candidates: [String], in executable: String) throws -> Set<String> {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: executable), options: .alwaysMapped)
        return Set(candidates.filter { bytes.range(of: Data(mangled($0).utf8)) != nil })
    }

    @Test(arguments: ["alfred", "alfred-broker", "alfred-key-service", "alfred-attestor"])
    func productionExecutableLinksOnlyItsRole(_ name: String) throws {
        #expect(try Self.modules(Self.forbidden[name]!, in: AlfredBinary.named(name)).isEmpty)
    }

    @Test func theChecksSeeModulesThatAreThere() throws {
        #expect(try Self.modules(["AlfredTestCluster", "StandIns"], in: AlfredBinary.dev) == ["AlfredTestCluster", "StandIns"])
        #expect(try Self.modules(["TokenBroker", "KeyServiceClient", "Attestation", "APNsProviderToken"], in: AlfredBinary.broker).count == 4)
        #expect(try Self.modules(["APNs", "NIOHTTP2"], in: AlfredBinary.named("alfred")) == ["APNs", "NIOHTTP2"])
        #expect(try Self.modules(["KeyService"], in: AlfredBinary.keyService) == ["KeyService"])
        #expect(try Self.modules(["Attestor"], in: AlfredBinary.attestor) == ["Attestor"])
        #expect(try Self.modules(["BrokerClient", "Assistant", "Sealing", "Delivery"], in: AlfredBinary.path).count == 4)
    }
}

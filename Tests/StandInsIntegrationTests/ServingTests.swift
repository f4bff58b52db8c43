import AlfredTestCluster
import Foundation
import Logging
import ServiceLifecycle
import StandIns
import Testing

/// The stand-in as a server: its port while it runs, and a clear error when it cannot have one.
@Suite(.timeLimit(.minutes(5))) struct ServingTests {
    @Test func portIsReportedWhileRunningAndRefusedAfterStop() async throws {
        let first = GoogleStandIn(configuration: GoogleServer.dataConfiguration())
        let second = GoogleStandIn(configuration: GoogleServer.dataConfiguration())
        let services = ServiceGroup(services: [first, second], logger: Logger(label: "alfred.standin.test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            let ports = (try await first.port(), try await second.port())
            #expect(ports.0 > 0 && ports.1 > 0 && ports.0 != ports.1)
            let endpoints = try await first.endpoints()
            #expect(endpoints.tokenURL == "http://127.0.0.1:\(ports.0)/token")
            #expect(endpoints.authorizationURL == "http://127.0.0.1:\(ports.0)/o/oauth2/v2/auth")
            #expect(endpoints.revokeURL == "http://127.0.0.1:\(ports.0)/revoke")
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        let error = await #expect(throws: StandInError.self) { try await first.port() }
        #expect(error?.code == .notRunning)
    }

    @Test func aTakenPortIsReportedNotAwaitedForever() async throws {
        let holder = GoogleStandIn(configuration: GoogleServer.dataConfiguration())
        let services = ServiceGroup(services: [holder], logger: Logger(label: "alfred.standin.test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var clash = GoogleServer.dataConfiguration()
            clash.port = try await holder.port()
            let loser = GoogleStandIn(configuration: clash, logger: Logger(label: "alfred.standin.test"))
            group.addTask { try? await loser.run() }
            let error = await #expect(throws: StandInError.self) { try await loser.port() }
            #expect(error?.code == .notRunning)
            #expect(error?.message.contains("is the port free?") == true)
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }
}

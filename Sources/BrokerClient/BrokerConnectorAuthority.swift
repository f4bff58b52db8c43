import AlfredCore
import Foundation

/// The API's view of the broker: connect and disconnect, with the broker's errors sorted into what
/// the API answers (`ConnectFailure`).
extension BrokerClient: ConnectorAuthority {
    public func connect(_ exchange: CodeExchange) async throws(ConnectFailure) -> ConnectedConnector {
        do {
            return try await exchangeCode(exchange)
        } catch {
            throw Self.connectFailure(error)
        }
    }

    public func disconnect(connectorID: UUID) async throws(ConnectFailure) {
        do {
            try await revoke(connectorID: connectorID.uuidString.lowercased())
        } catch {
            throw Self.connectFailure(error)
        }
    }

    static func connectFailure(_ error: any Error) -> ConnectFailure {
        guard let error = error as? BrokerError else {
            return ConnectFailure(.unavailable, "the token broker could not be asked (\(type(of: error)))")
        }
        switch error.code {
        // On an exchange, invalid_grant is about the code (expired, used, another client's).
        case .needsReconsent: return ConnectFailure(.codeRefused, "Google refused the authorization code (expired, already used, or issued for another redirect); start connecting again")
        case .missingScopes: return ConnectFailure(.missingScopes, error.message)
        case .notFound: return ConnectFailure(.notFound, error.message)
        default: return ConnectFailure(error.retryable ? .unavailable : .failed, error.message)
        }
    }
}

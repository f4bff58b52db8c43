import AlfredCore

import Foundation

/// How workers get Google access tokens: from the broker over its Unix socket. A worker never sees
/// a refresh token, and has no way to ask for one.
public struct BrokerTokenSource: TokenSource {
    let client: BrokerClient

    public init(client: BrokerClient) { self.client = client }

    public func accessToken(for connector: UUID, forceRefresh: Bool) async throws -> AccessToken {
        let token = try await client.accessToken(connectorID: connector.uuidString.lowercased(), forceRefresh: forceRefresh)
        return AccessToken(token: token.token, expiresAt: token.expiresAt)
    }
}

/// How workers get the APNs provider token: from the broker, which holds the signing key and mints in
/// one place for every worker on the host.
public struct BrokerProviderTokenSource: ProviderTokenSource {
    let client: BrokerClient

    public init(client: BrokerClient) { self.client = client }

    public func providerToken(rejected: String?) async throws -> ProviderToken {
        try await client.apnsProviderToken(rejected: rejected)
    }
}

/// How the delete-all job revokes a user's Google grants: through the broker, which alone can open
/// the refresh token. A connector the broker no longer knows is gone (deleted and revoked before).
public struct BrokerRevoker: ConnectorRevoker {
    let client: BrokerClient

    public init(client: BrokerClient) { self.client = client }

    public func revoke(connector: UUID) async throws(RevocationFailure) -> RevocationResult {
        do {
            try await client.revoke(connectorID: connector.uuidString.lowercased())
            return .revoked
        } catch let error as BrokerError where error.code == .notFound {
            return .gone
        } catch let error as BrokerError {
            throw RevocationFailure(retryable: error.retryable, reason: error.code.rawValue)
        } catch {
            throw RevocationFailure(retryable: true, reason: "broker_unavailable")
        }
    }
}

import Foundation

/// A provider token and when it was issued.
public struct ProviderToken: Sendable, Equatable {
    public let jwt: String
    public let issuedAt: Date
    public init(jwt: String, issuedAt: Date) { self.jwt = jwt; self.issuedAt = issuedAt }
}

/// Where a sender gets the provider token. `rejected`: the token APNs just refused with
/// `ExpiredProviderToken` (nil for an ordinary call).
public protocol ProviderTokenSource: Sendable {
    func providerToken(rejected: String?) async throws -> ProviderToken
}

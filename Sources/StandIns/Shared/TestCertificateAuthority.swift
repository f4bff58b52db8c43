import Crypto
import Foundation
import SwiftASN1
import X509
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway certificate authority and one server certificate it signed, so a stand-in can serve
/// TLS that a client trusts by adding `caCertificatePEM` to its trust roots (nothing system-wide).
///
/// Both keys are P-256. The server certificate names every host in `hosts` as a subject alternative
/// name (DNS names, and IPv4/IPv6 literals as IP addresses), is valid from an hour ago for 30 days
/// and is for server authentication only. The CA's private key is dropped after signing.
public struct TestCertificateAuthority: Sendable {
    public let caCertificatePEM: String
    public let serverCertificatePEM: String
    /// PKCS#8 PEM (`BEGIN PRIVATE KEY`).
    public let serverPrivateKeyPEM: String

    public static func generate(hosts: [String] = ["localhost", "127.0.0.1"]) throws -> TestCertificateAuthority {
        let now = Date()
        let notBefore = now.addingTimeInterval(-3600)
        let notAfter = now.addingTimeInterval(30 * 24 * 3600)

        let caKey = P256.Signing.PrivateKey()
        let caPublicKey = Certificate.PublicKey(caKey.publicKey)
        let caName = try DistinguishedName {
            OrganizationName("Alfred stand-ins")
            CommonName("Alfred test CA \(UUID().uuidString.prefix(8))")
        }
        let caKeyID = SubjectKeyIdentifier(hash: caPublicKey)
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: caPublicKey,
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: caName, subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                caKeyID
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))

        let serverKey = P256.Signing.PrivateKey()
        let serverPublicKey = Certificate.PublicKey(serverKey.publicKey)
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: serverPublicKey,
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: caName,
            subject: try DistinguishedName { CommonName(hosts.first ?? "localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(hosts.map(Self.generalName))
                SubjectKeyIdentifier(hash: serverPublicKey)
                AuthorityKeyIdentifier(keyIdentifier: caKeyID.keyIdentifier)
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))

        return TestCertificateAuthority(
            caCertificatePEM: try ca.serializeAsPEM().pemString,
            serverCertificatePEM: try server.serializeAsPEM().pemString,
            serverPrivateKeyPEM: serverKey.pemRepresentation)
    }

    /// An IP literal becomes an `iPAddress` name (4 or 16 bytes), anything else a `dNSName`.
    static func generalName(_ host: String) -> GeneralName {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: &v4) { ArraySlice($0) }))
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: &v6) { ArraySlice($0) }))
        }
        return .dnsName(host)
    }
}

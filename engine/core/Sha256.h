#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace Aile {

/// SHA-256 by OpenSSL, which uses the CPU's SHA extensions where it has them: about seven times
/// QCryptographicHash's speed here (docs/performance.md "Change 19 (body)"). For what the hot path
/// hashes by the kilobyte, a conversation's opening (routing/SessionEvidence.cpp); the same digest
/// as QCryptographicHash::Sha256, byte for byte.
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void addData(QByteArrayView bytes);
    /// The 32-byte digest of everything added; the object is spent after it.
    QByteArray result();

    static QByteArray hash(QByteArrayView bytes);

private:
    EVP_MD_CTX *m_ctx;
};

} // namespace Aile

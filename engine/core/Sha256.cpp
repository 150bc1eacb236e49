#include "Sha256.h"

#include <openssl/evp.h>

#include <new>

namespace Aile {

namespace {

// Fetched once: an implicit fetch by name on every EVP_DigestInit_ex costs a lookup under a lock.
const EVP_MD *sha256()
{
    static EVP_MD *const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return md;
}

} // namespace

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new())
{
    if (!m_ctx || !sha256() || EVP_DigestInit_ex(m_ctx, sha256(), nullptr) != 1)
        throw std::bad_alloc(); // OpenSSL fails here only when it cannot allocate
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(m_ctx);
}

void Sha256::addData(QByteArrayView bytes)
{
    if (!bytes.isEmpty())
        EVP_DigestUpdate(m_ctx, bytes.data(), size_t(bytes.size()));
}

QByteArray Sha256::result()
{
    QByteArray out(32, Qt::Uninitialized);
    unsigned int size = 0;
    EVP_DigestFinal_ex(m_ctx, reinterpret_cast<unsigned char *>(out.data()), &size);
    out.truncate(int(size));
    return out;
}

QByteArray Sha256::hash(QByteArrayView bytes)
{
    Sha256 h;
    h.addData(bytes);
    return h.result();
}

} // namespace Aile

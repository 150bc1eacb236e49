#pragma once

#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>

namespace Aile::Secrets {

/// Where credentials live. A reference names the place: "env:NAME" (an environment variable),
/// "keychain:NAME" (the OS keychain through QtKeychain), or "file:NAME" (the plain-text file
/// the user opted into when no keychain answers; mode 0600). Every operation is asynchronous:
/// the keychain may prompt, so nothing here blocks the thread that calls it.
class SecretStore : public QObject
{
    Q_OBJECT
public:
    using ReadCallback = std::function<void(const QString &secret, const QString &error)>;
    using WriteCallback = std::function<void(const QString &error)>;

    /// fileFallbackPath: the opted-in plain-text file, or empty when the user has not opted in.
    explicit SecretStore(QString serviceName, QString fileFallbackPath = {}, QObject *parent = nullptr);

    void read(const QString &reference, ReadCallback done);
    /// Stores under "keychain:NAME" (or "file:NAME" when the reference says so).
    void write(const QString &reference, const QString &secret, WriteCallback done);
    void remove(const QString &reference, WriteCallback done);

    QString serviceName() const { return m_service; }
    QString fileFallbackPath() const { return m_filePath; }
    void setFileFallbackPath(const QString &path) { m_filePath = path; }

private:
    QString readFile(const QString &name, QString *error) const;
    QString writeFile(const QString &name, const QString *secret) const;

    QString m_service;
    QString m_filePath;
};

/// Explains a QtKeychain failure in words a user can act on.
QString describeKeychainError(int code, const QString &detail);

} // namespace Aile::Secrets

#include "SecretStore.h"

#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSaveFile>
#include <QtCore/QTimer>

#include <qt6keychain/keychain.h>

namespace Aile::Secrets {

QString describeKeychainError(int code, const QString &detail)
{
    switch (code) {
    case QKeychain::EntryNotFound: return QStringLiteral("the keychain has no such entry");
    case QKeychain::NoBackendAvailable:
        return QStringLiteral("no keychain answers on this system (no Secret Service on the session bus); "
                              "start one (gnome-keyring, KeePassXC) or opt in to the plain-text secrets file");
    case QKeychain::AccessDeniedByUser: return QStringLiteral("access to the keychain was denied");
    case QKeychain::AccessDenied: return QStringLiteral("the keychain refused access: %1").arg(detail);
    default: return QStringLiteral("the keychain failed: %1").arg(detail);
    }
}

SecretStore::SecretStore(QString serviceName, QString fileFallbackPath, QObject *parent)
    : QObject(parent), m_service(std::move(serviceName)), m_filePath(std::move(fileFallbackPath))
{
}

void SecretStore::read(const QString &reference, ReadCallback done)
{
    const qsizetype colon = reference.indexOf(QLatin1Char(':'));
    const QString scheme = reference.left(colon);
    const QString name = reference.mid(colon + 1);
    if (colon <= 0 || name.isEmpty()) {
        done({}, QStringLiteral("\"%1\" is not a credential reference (env:NAME, keychain:NAME or file:NAME)").arg(reference));
        return;
    }
    if (scheme == QLatin1String("env")) {
        const QString value = qEnvironmentVariable(name.toUtf8().constData());
        done(value, value.isEmpty() ? QStringLiteral("the environment variable %1 is not set").arg(name) : QString());
        return;
    }
    if (scheme == QLatin1String("file")) {
        QString error;
        const QString value = readFile(name, &error);
        done(value, error);
        return;
    }
    if (scheme != QLatin1String("keychain")) {
        done({}, QStringLiteral("unknown credential store \"%1\"; use env:, keychain: or file:").arg(scheme));
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setKey(name);
    connect(job, &QKeychain::Job::finished, this, [job, done] {
        if (job->error() == QKeychain::NoError)
            done(job->textData(), {});
        else
            done({}, describeKeychainError(job->error(), job->errorString()));
    });
    job->start();
}

void SecretStore::write(const QString &reference, const QString &secret, WriteCallback done)
{
    const qsizetype colon = reference.indexOf(QLatin1Char(':'));
    const QString scheme = reference.left(colon);
    const QString name = reference.mid(colon + 1);
    if (scheme == QLatin1String("file")) {
        done(writeFile(name, &secret));
        return;
    }
    if (scheme != QLatin1String("keychain") || name.isEmpty()) {
        done(QStringLiteral("secrets are written to keychain:NAME (or file:NAME when opted in)"));
        return;
    }
    auto *job = new QKeychain::WritePasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setKey(name);
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [job, done] {
        done(job->error() == QKeychain::NoError ? QString() : describeKeychainError(job->error(), job->errorString()));
    });
    job->start();
}

void SecretStore::remove(const QString &reference, WriteCallback done)
{
    const qsizetype colon = reference.indexOf(QLatin1Char(':'));
    const QString scheme = reference.left(colon);
    const QString name = reference.mid(colon + 1);
    if (scheme == QLatin1String("file")) {
        done(writeFile(name, nullptr));
        return;
    }
    if (scheme != QLatin1String("keychain")) {
        done({});
        return;
    }
    auto *job = new QKeychain::DeletePasswordJob(m_service, this);
    job->setAutoDelete(true);
    job->setKey(name);
    connect(job, &QKeychain::Job::finished, this, [job, done] {
        const bool gone = job->error() == QKeychain::NoError || job->error() == QKeychain::EntryNotFound;
        done(gone ? QString() : describeKeychainError(job->error(), job->errorString()));
    });
    job->start();
}

QString SecretStore::readFile(const QString &name, QString *error) const
{
    if (m_filePath.isEmpty()) {
        *error = QStringLiteral("the plain-text secrets file is not enabled; store the secret in the keychain");
        return {};
    }
    QFile f(m_filePath);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("the secrets file %1 cannot be read").arg(m_filePath);
        return {};
    }
    const QString value = QJsonDocument::fromJson(f.readAll()).object().value(name).toString();
    if (value.isEmpty())
        *error = QStringLiteral("the secrets file has no entry %1").arg(name);
    return value;
}

QString SecretStore::writeFile(const QString &name, const QString *secret) const
{
    if (m_filePath.isEmpty())
        return QStringLiteral("the plain-text secrets file is not enabled");
    QJsonObject all;
    {
        QFile f(m_filePath);
        if (f.open(QIODevice::ReadOnly))
            all = QJsonDocument::fromJson(f.readAll()).object();
    }
    if (secret)
        all.insert(name, *secret);
    else
        all.remove(name);
    QSaveFile out(m_filePath);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("the secrets file %1 cannot be written").arg(m_filePath);
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    out.write(QJsonDocument(all).toJson());
    if (!out.commit())
        return QStringLiteral("the secrets file %1 cannot be written").arg(m_filePath);
    QFile::setPermissions(m_filePath, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return {};
}

} // namespace Aile::Secrets

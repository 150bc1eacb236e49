#pragma once

#include "KeyInfo.h"
#include "SharerEdit.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Api {

/// A sharer as the engine's status lists it: its configuration in the configuration file's names
/// (what the Edit dialog starts from) and what the engine knows of it. Never the secret.
struct SharerStatus
{
    SharerEdit config;
    QStringList tested; // models that passed a test on this sharer
    int priority = 0;
    int weight = 1;
    bool blocked = false;
    bool credentialAvailable = false; // its secret is in memory, or the requesting tool's login serves it
    QString credentialError;          // why the secret could not be read, in the secret store's words
    bool needsKey = false;            // moved to another provider or base URL: its credential is not sent there

    static SharerStatus fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const SharerStatus &) const = default;
};

/// A provider of the catalogue (built in or the user's own) as the status lists it.
struct ProviderStatus
{
    QString id;
    QString name;
    QString baseUrl;
    QStringList wires; // chat, messages, responses, …: which wires it speaks, sorted
    bool builtIn = true;
    bool selfHosted = false;

    bool speaks(const QString &wire) const { return wires.contains(wire); }
    static ProviderStatus fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const ProviderStatus &) const = default;
};

/// What a window shows of the engine (GET /admin/status; the in-process window gets it as a
/// signal): whether and where it listens, its sharers, keys and providers, the keychain, and who
/// runs it (a window attached over HTTP names it: "attached to aile serve (pid …)").
struct EngineStatus
{
    bool listening = false;
    QString address;
    quint16 port = 0;
    QString error;
    QList<SharerStatus> sharers;
    QList<KeyInfo> keys;
    QList<ProviderStatus> providers;
    // Whether a keychain answers, asked once at start without prompting (read-only). The banner
    // reads keychainErrorKind (Secrets::SecretError::Kind), never the words of keychainError.
    bool keychainProbed = false; // false until the probe answers
    bool keychainAvailable = false;
    QString keychainError; // why none answers, in the secret store's words (shown, not parsed)
    int keychainErrorKind = 0;
    QString secretsFile; // the opted-in plain-text secrets file (mode 0600), or empty
    qint64 pid = 0;
    QString program; // the executable's name: aile (aile serve) or aile-desktop
    QString version;

    /// The sharer of a handle, or null.
    const SharerStatus *sharer(const QString &handle) const;
    static EngineStatus fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const EngineStatus &) const = default;
};

} // namespace Aile::Api

Q_DECLARE_METATYPE(Aile::Api::EngineStatus)

#pragma once

#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>
#include <optional>

namespace Aile::Secrets {

/// The service name the app's keychain entries are filed under (the Secret Service item's label and
/// its "server" attribute; QtKeychain's schema "org.qt.keychain" puts the entry name in "user").
QString defaultServiceName();

/// A credential reference: "env:NAME" (an environment variable, read only), "keychain:NAME" (the
/// OS keychain through QtKeychain) or "file:NAME" (the plain-text file the user opted into; 0600).
struct Reference
{
    enum Scheme { Env, Keychain, File };
    Scheme scheme = Keychain;
    QString name;

    /// nullopt when `text` is not a reference. Then `text` may well be a pasted secret: callers
    /// must not echo it (the errors of this class never do).
    static std::optional<Reference> parse(const QString &text);
    QString toString() const;
};

/// The outcome of a secret operation. Converts to its user-facing message, so a callback may take
/// `const QString &error` (empty on success). Neither message() nor detail() ever holds a secret.
class SecretError
{
public:
    enum Kind {
        None,           ///< success
        InvalidRequest, ///< not a reference, a name that cannot be used, an empty secret, writing env:
        NotFound,       ///< the keychain (or the file, or the environment) has no such entry
        NoKeychain,     ///< no keychain answers: no session bus, no Secret Service on it, no backend
        AccessDenied,   ///< the keychain is locked, or the user or the keychain refused access
        Timeout,        ///< the keychain did not answer in time (an unlock prompt left open, a hung service)
        NotOptedIn,     ///< file: is used but the user has not opted in to the plain-text file
        UnsafeFile,     ///< the secrets file is readable by others or not the user's own
        Failed,         ///< anything else; detail() says what the system said
    };

    SecretError() = default;
    SecretError(Kind kind, QString message, QString detail = {}) : m_kind(kind), m_message(std::move(message)), m_detail(std::move(detail)) { }

    Kind kind() const { return m_kind; }
    bool isError() const { return m_kind != None; }
    bool isEmpty() const { return m_kind == None; }
    /// One sentence for the user: what happened and what to do.
    QString message() const { return m_message; }
    /// What the keychain or the system reported, for logs (never the secret).
    QString detail() const { return m_detail; }
    operator QString() const { return m_message; } // NOLINT: callbacks may take the message as a QString

private:
    Kind m_kind = None;
    QString m_message;
    QString m_detail;
};

/// Whether a keychain answers (see SecretStore::probeKeychain).
struct KeychainStatus
{
    bool available = false;
    SecretError error; ///< why not (NoKeychain with the user-facing message, AccessDenied, Timeout, Failed)
};

/// Where credentials live. Every keychain operation is asynchronous (the keychain may prompt, so
/// nothing here blocks the thread that calls it); env: and file: answer before the call returns.
/// Callbacks run on the thread the store lives on, at most once, and not after the store is gone.
///
/// Secrets go to the keychain only: QtKeychain's insecure fallback stays off, and a keychain that
/// does not answer never makes a write land on disk. The plain-text file is written only through
/// "file:NAME" references and only when the user opted in (fileFallbackPath not empty); it is
/// created 0600 from the start and its mode is checked after every write. No message, error or
/// log line of this class contains a secret.
class SecretStore : public QObject
{
    Q_OBJECT
public:
    using ReadCallback = std::function<void(const QString &secret, const SecretError &error)>;
    using WriteCallback = std::function<void(const SecretError &error)>;
    using ProbeCallback = std::function<void(const KeychainStatus &status)>;

    enum class ProbeMode {
        RoundTrip, ///< write, read back and delete a canary entry: proves a secret can be stored
        ReadOnly,  ///< look up a canary entry that does not exist: "no such entry" means it answers; never prompts
    };

    /// fileFallbackPath: the opted-in plain-text file, or empty when the user has not opted in.
    explicit SecretStore(QString serviceName = defaultServiceName(), QString fileFallbackPath = {}, QObject *parent = nullptr);

    void read(const QString &reference, ReadCallback done);
    /// Stores under "keychain:NAME", or "file:NAME" when the user opted in; env: is read only.
    void write(const QString &reference, const QString &secret, WriteCallback done);
    /// Removing an entry that does not exist succeeds; removing env:NAME does nothing.
    void remove(const QString &reference, WriteCallback done);

    /// Asks whether a keychain answers at all. When none does, status.error is NoKeychain and its
    /// message is noKeychainMessage(). Gives up after probeTimeout().
    void probeKeychain(ProbeCallback done, ProbeMode mode = ProbeMode::RoundTrip);

    QString serviceName() const { return m_service; }
    QString fileFallbackPath() const { return m_filePath; }
    bool fileFallbackEnabled() const { return !m_filePath.isEmpty(); }
    /// The opt-in: a path (in the data folder) enables file: references; empty turns them off.
    void setFileFallbackPath(const QString &path) { m_filePath = path; }
    /// For the GUI to mark the opted-in file: empty when not opted in.
    QString fileFallbackNotice() const;

    /// Keychain operations that have not answered after this long fail with Timeout (0: never).
    /// Default 120 s: long enough for a person to answer an unlock prompt.
    void setOperationTimeout(int ms) { m_operationTimeoutMs = ms; }
    int operationTimeout() const { return m_operationTimeoutMs; }
    /// The probe gives up after this long and reports that no keychain answers. Default 30 s.
    void setProbeTimeout(int ms) { m_probeTimeoutMs = ms; }
    int probeTimeout() const { return m_probeTimeoutMs; }

    /// "no keychain answers on this system …": the plain words the GUI and the CLI show.
    static QString noKeychainMessage();
    /// The name of the canary entry probeKeychain() writes and deletes.
    static QString probeEntryName();

private:
    struct KeychainResult
    {
        int code = 0; // QKeychain::Error, or -1 for a timeout
        QString detail;
        QString text;
        bool serviceOnBus = true; // after an unclassified error: whether the bus has a keychain service
    };
    using KeychainDone = std::function<void(const KeychainResult &)>;
    enum class Op { Read, Write, Remove };

    void runKeychain(Op op, const QString &name, const QString *secret, int timeoutMs, KeychainDone done);
    SecretError keychainError(const KeychainResult &r, const QString &name, const QString &secret) const;

    QString readFile(const QString &name, SecretError *error) const;
    SecretError writeFile(const QString &name, const QString *secret) const;

    QString m_service;
    QString m_filePath;
    int m_operationTimeoutMs = 120000;
    int m_probeTimeoutMs = 30000;
};

/// Explains a QtKeychain failure in words a user can act on (kept for callers that only have a
/// QKeychain::Error code; SecretStore's own errors come classified as SecretError).
QString describeKeychainError(int code, const QString &detail);

} // namespace Aile::Secrets

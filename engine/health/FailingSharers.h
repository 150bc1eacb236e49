#pragma once

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Keys {
struct ApiKey;
}

namespace Aile::Health {

/// "Move sharers that keep failing to the back" (a key's demoteFailing): 3 of a sharer's own
/// failures within 5 minutes put it last in that key's order for 10 minutes; a success through it
/// clears the count. Kept per key × provider × sharer, in memory only; it never touches the
/// sharer's standing with other keys, and never removes anyone.
class FailingSharers
{
public:
    static constexpr int Threshold = 3;
    static constexpr qint64 WindowMs = 5 * 60 * 1000;
    static constexpr qint64 DemoteMs = 10 * 60 * 1000;

    /// A finished attempt of a key that demotes failing sharers (ignored for other keys).
    void note(const Keys::ApiKey &key, const QString &provider, const QString &handle, bool failed, qint64 nowMs);
    bool demoted(const QString &keyId, const QString &provider, const QString &handle, qint64 nowMs) const;

private:
    struct Entry
    {
        QList<qint64> failures;
        qint64 demotedUntilMs = 0;
    };
    QHash<QString, Entry> m_entries;
};

} // namespace Aile::Health

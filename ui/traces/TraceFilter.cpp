#include "TraceFilter.h"

namespace Aile::Ui {

bool TraceFilter::isEmpty() const
{
    return keyId.isEmpty() && model.isEmpty() && sharer.isEmpty() && status == 0 && text.isEmpty();
}

bool TraceFilter::matches(const Store::TraceRecord &t) const
{
    if (!keyId.isEmpty() && t.keyId != keyId && t.keyName != keyId)
        return false;
    if (!model.isEmpty() && t.modelAsked != model && t.modelServed != model)
        return false;
    if (!sharer.isEmpty() && t.sharer != sharer && t.sharerName != sharer)
        return false;
    if (status > 0 && t.status != status)
        return false;
    if (!text.isEmpty()) {
        // SQLite's LIKE ignores ASCII case; so does this.
        const QString *fields[] = {&t.modelAsked, &t.modelServed, &t.route, &t.sharerName, &t.error, &t.keyName};
        bool any = false;
        for (const QString *f : fields)
            any = any || f->contains(text, Qt::CaseInsensitive);
        if (!any)
            return false;
    }
    return true;
}

Store::TraceQuery TraceFilter::query(int limit, int offset, bool withAttempts) const
{
    Store::TraceQuery q;
    q.limit = limit;
    q.offset = offset;
    q.keyId = keyId;
    q.model = model;
    q.sharer = sharer;
    q.status = status;
    q.text = text;
    q.withAttempts = withAttempts;
    return q;
}

} // namespace Aile::Ui

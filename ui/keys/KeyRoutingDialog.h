#pragma once

#include "KeyEditDialog.h"
#include "api/values/EngineStatus.h"
#include "api/values/KeyRoutingValue.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace Aile::Ui {

class ManagementClient;

/// A key's Routing: every routing setting a key carries (docs/keys.md), read with GET /keys/{id}
/// and saved with PUT /keys/{id}. The fields hold what the API accepts (the ranges are the API's);
/// what only the engine can judge (a floor above the key's own ceiling, a sharer both allowed and
/// blocked, a list that contradicts one of the key's routes) is sent and the engine's own message
/// is shown in the dialog, which stays open. Fields the dialog does not show are kept as loaded.
class KeyRoutingDialog : public KeyEditDialog
{
    Q_OBJECT
public:
    enum class Ceiling { None, PercentOfList, PerMillion };

    KeyRoutingDialog(ManagementClient *client, QWidget *parent = nullptr);

    /// The sharers as EngineStatus carries them: the lists offer them by name.
    void setSharers(const QList<Api::SharerStatus> &sharers);
    /// Reads the key (GET /keys/{id}) and fills the fields; loaded() follows.
    void load(const QString &keyId);
    /// Sends the fields (PUT /keys/{id}); saved() and the dialog closes, or the engine's message shows.
    void save() override;

    /// The routing settings the fields describe (what save() sends).
    Api::KeyRoutingValue routing() const;
    /// Fills the fields from a key's routing settings.
    void setRouting(const Api::KeyRoutingValue &routing);
    /// From a trace: focuses and marks the field (its objectName: ceiling, maxCost, verifiedOnly, …)
    /// whose setting refused a request; false when the dialog has no such field.
    bool highlightLever(const QString &objectName);
    QString highlightedLever() const { return m_highlighted; }

Q_SIGNALS:
    void saved(const QString &keyId, const QString &name);

private:
    void buildSharerLists(const Api::KeyRoutingValue &routing);
    void buildProviderList(const Api::KeyRoutingValue &routing);
    void addHandle(QListWidget *list);
    void updateCeiling();
    static QStringList checked(const QListWidget *list);

    Api::KeyRoutingValue m_loaded; // the routing as read, for the settings the dialog does not show
    QString m_highlighted;
    QList<Api::SharerStatus> m_sharers;

    QComboBox *m_ceilingMode;
    QDoubleSpinBox *m_ceiling;
    QDoubleSpinBox *m_floor;
    QDoubleSpinBox *m_maxCost;
    QDoubleSpinBox *m_spendLimit;
    QComboBox *m_provider;
    QListWidget *m_neverProviders;
    QCheckBox *m_noTraining;
    QCheckBox *m_selfHosted;
    QListWidget *m_onlySharers;
    QListWidget *m_neverSharers;
    QLineEdit *m_handle;
    QCheckBox *m_speed;
    QCheckBox *m_demote;
    QCheckBox *m_phaseLimits;
    QCheckBox *m_sticky;
    QCheckBox *m_verified;
    QComboBox *m_pinSharer;
    QCheckBox *m_bareAny;
};

} // namespace Aile::Ui

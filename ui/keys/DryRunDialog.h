#pragma once

#include "api/values/DryRunPlan.h"

#include <QtCore/QJsonObject>
#include <QtWidgets/QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace Aile::Ui {

class ManagementClient;

/// "Dry run a request…" for a key (docs/keys.md, "Named routes", Dry run): asks POST /keys/route-dry-run and
/// shows, per target in order, the sharers left with quote, tested flag and speed (first and tied
/// marked), the ones the key's or the headers' filters removed by name, the unavailable counts,
/// whether the order is fixed or sampled, and the refusal a real request would get. For a route
/// name it says the route's order and marks a target refused before any sharer is asked (a spent
/// budget). Nothing is sent to a sharer, charged or written.
class DryRunDialog : public QDialog
{
    Q_OBJECT
public:
    DryRunDialog(ManagementClient *client, const QString &keyId, const QString &keyName, QWidget *parent = nullptr);

    void setModel(const QString &model);
    /// Runs the dry run for the model in the field.
    void run();
    QTreeWidget *results() const { return m_results; }
    QString summary() const;
    Api::DryRunPlan lastAnswer() const { return m_answer; }

Q_SIGNALS:
    void answered();

private:
    void show(const Api::DryRunPlan &answer);
    /// "Route coding tries its targets in order." and its first-token limit.
    static QString routeLine(const Api::DryRunRoute &route);

    ManagementClient *m_client;
    QString m_keyId;
    QLineEdit *m_model;
    QPushButton *m_run;
    QTreeWidget *m_results;
    QLabel *m_summary;
    Api::DryRunPlan m_answer;
};

} // namespace Aile::Ui

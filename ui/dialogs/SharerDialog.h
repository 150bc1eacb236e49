#pragma once

#include <QtCore/QJsonObject>
#include <QtWidgets/QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace Aile {
class EngineHost;
}

namespace Aile::Ui {

/// Add or edit one sharer. OK sends `POST /sharers` (or `PUT /sharers/{handle}`) in-process and
/// closes only when the engine accepted it; otherwise the engine's own error message is shown,
/// so the dialog validates exactly as the API does. The credential goes as "secret" to the
/// engine, which keeps it in the OS keychain only.
class SharerDialog : public QDialog
{
    Q_OBJECT
public:
    /// An empty sharer means Add; otherwise its fields (configuration-file format) are edited.
    SharerDialog(EngineHost *host, const QStringList &providers, const QJsonObject &sharer, QWidget *parent = nullptr);

    /// The body OK sends.
    QJsonObject body() const;
    QString error() const;

Q_SIGNALS:
    void saved(const QString &handle, const QString &name);

protected:
    void done(int result) override;

private:
    void submit();
    void handleReply(quint64 id, int status, const QByteArray &body);
    void updatePriceMode();
    void addQuoteRow(const QString &model = {}, double input = 0, double output = 0);

    EngineHost *m_host;
    QString m_handle;
    quint64 m_call = 0;
    QLineEdit *m_name;
    QComboBox *m_provider;
    QLineEdit *m_baseUrl;
    QComboBox *m_kind;
    QComboBox *m_priceMode;
    QDoubleSpinBox *m_percent;
    QTableWidget *m_quotes;
    QWidget *m_quoteButtons;
    QLineEdit *m_models;
    QSpinBox *m_slots;
    QLineEdit *m_secret;
    QCheckBox *m_fileSecret;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace Aile::Ui
